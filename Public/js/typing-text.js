// The words of a typing indicator: "Alice is typing…", "Alice, Bob, and 2 others are typing…".
// A port of TypewireCore's TypingText (Sources/TypewireCore/Text/); both are checked against the same
// table, TestVectors/typing-text.json. Pure: no DOM, so node's test runner checks it too.

/** How many names a sentence shows: full (up to three) or compact (up to two). */
export const STYLES = Object.freeze(['full', 'compact']);

const isWhitespace = (character) => /^\p{White_Space}+$/u.test(character);

/**
 * A language's lists with commas and a conjunction: "A and B", "A, B and C", "A, B and 2 others".
 * `and(last)` is the conjunction before the last item, spaces included (Arabic's " و" joins the word after);
 * `comma` separates the others; `serialComma` comes before the conjunction in a list of three or more.
 */
function conjunctionLists({ and, comma = ', ', serialComma = '', otherCount }) {
  const list = (a, b, last) => `${a}${comma}${b}${serialComma}${and(last)}${last}`;
  const pair = (a, b) => `${a}${and(b)}${b}`;
  return {
    pair,
    triple: list,
    twoAndOthers: (a, b, n) => list(a, b, otherCount(n)),
    oneAndOthers: (a, n) => pair(a, otherCount(n)),
  };
}

/**
 * What a language says a member does, one phrase per activity, for one grammatical number: a function of
 * the activity, its tool's name (`detail`) and how a name stands in the text (`name`).
 */
function activityWords({ typing, thinking, usingTool, aTool, recording, uploading }) {
  return ({ activity, detail }, name = (n) => n) =>
    ({
      thinking,
      tool: usingTool(detail == null ? aTool : name(detail)),
      recording,
      uploading,
    })[activity] ?? typing;
}

const englishDoing = activityWords({
  typing: 'typing', thinking: 'thinking', usingTool: (t) => `using ${t}`, aTool: 'a tool', recording: 'recording audio',
  uploading: 'uploading a file',
});
const english = {
  replying: (n) => (n === 1 ? '1 person is replying' : `${n} people are replying`),
  seenBy: (s) => `Seen by ${s}`,
  someone: 'Someone',
  people: (n) => `${n} people`,
  ...conjunctionLists({ and: () => ' and ', serialComma: ',', otherCount: (n) => (n === 1 ? '1 other' : `${n} others`) }),
  sentence: (subject, count, activity) => `${subject} ${count > 1 ? 'are' : 'is'} ${englishDoing(activity)}`,
};

const germanDoing = [
  activityWords({
    typing: 'schreibt', thinking: 'denkt nach', usingTool: (t) => `verwendet ${t}`, aTool: 'ein Werkzeug',
    recording: 'nimmt Audio auf', uploading: 'lädt eine Datei hoch',
  }),
  activityWords({
    typing: 'schreiben', thinking: 'denken nach', usingTool: (t) => `verwenden ${t}`, aTool: 'ein Werkzeug',
    recording: 'nehmen Audio auf', uploading: 'laden eine Datei hoch',
  }),
];
const german = {
  replying: (n) => (n === 1 ? '1 Person antwortet' : `${n} Personen antworten`),
  seenBy: (s) => `Gesehen: ${s}`, // not "von": "2 weitere Personen" would need the dative
  someone: 'Jemand',
  people: (n) => `${n} Personen`,
  ...conjunctionLists({ and: () => ' und ', otherCount: (n) => (n === 1 ? '1 weitere Person' : `${n} weitere Personen`) }),
  sentence: (subject, count, activity) => `${subject} ${germanDoing[count > 1 ? 1 : 0](activity)}`,
};

const frenchDoing = [
  activityWords({
    typing: "est en train d'écrire", thinking: 'réfléchit', usingTool: (t) => `utilise ${t}`, aTool: 'un outil',
    recording: 'enregistre un message audio', uploading: 'envoie un fichier',
  }),
  activityWords({
    typing: "sont en train d'écrire", thinking: 'réfléchissent', usingTool: (t) => `utilisent ${t}`, aTool: 'un outil',
    recording: 'enregistrent un message audio', uploading: 'envoient un fichier',
  }),
];
const french = {
  replying: (n) => (n === 1 ? '1 personne répond' : `${n} personnes répondent`),
  seenBy: (s) => `Vu par ${s}`,
  someone: "Quelqu'un",
  people: (n) => `${n} personnes`,
  ...conjunctionLists({ and: () => ' et ', otherCount: (n) => (n === 1 ? '1 autre personne' : `${n} autres personnes`) }),
  sentence: (subject, count, activity) => `${subject} ${frenchDoing[count > 1 ? 1 : 0](activity)}`,
};

/** Spanish "y" becomes "e" before the sound /i/ ("Bob e Isabel", "Ana e Hilda"), not before a diphthong ("Ana y Hielo"). */
export function spanishAnd(word) {
  let letters = Array.from(word.normalize('NFC').toLowerCase());
  if (letters[0] === 'h') letters = letters.slice(1);
  const [first, second] = letters;
  if (first !== 'i' && first !== 'í') return 'y';
  return first === 'i' && second !== undefined && 'aeou'.includes(second) ? 'y' : 'e';
}

const spanishDoing = activityWords({
  typing: 'escribiendo', thinking: 'pensando', usingTool: (t) => `usando ${t}`, aTool: 'una herramienta',
  recording: 'grabando audio', uploading: 'subiendo un archivo',
});
const spanish = {
  replying: (n) => (n === 1 ? '1 persona está respondiendo' : `${n} personas están respondiendo`),
  seenBy: (s) => `Visto por ${s}`,
  someone: 'Alguien',
  people: (n) => `${n} personas`,
  ...conjunctionLists({ and: (last) => ` ${spanishAnd(last)} `, otherCount: (n) => (n === 1 ? '1 persona más' : `${n} personas más`) }),
  sentence: (subject, count, activity) => `${subject} ${count > 1 ? 'están' : 'está'} ${spanishDoing(activity)}`,
};

const japaneseDoing = activityWords({
  typing: '入力中', thinking: '考え中', usingTool: (t) => `${t}を使用中`, aTool: 'ツール', recording: '録音中',
  uploading: 'ファイルをアップロード中',
});
const japanese = {
  replying: (n) => `${n}人が返信中`,
  seenBy: (s) => `${s}が既読`,
  seenCount: (n) => `${n}人が既読`,
  someone: '誰か',
  separator: '。',
  people: (n) => `${n}人`,
  pair: (a, b) => `${a}と${b}`,
  triple: (a, b, c) => `${a}、${b}、${c}`,
  twoAndOthers: (a, b, n) => `${a}、${b}と他${n}人`,
  oneAndOthers: (a, n) => `${a}と他${n}人`,
  sentence: (subject, _count, activity) => `${subject}が${japaneseDoing(activity)}`,
};

/**
 * Arabic's plural categories (CLDR): zero 0, one 1, two 2, few when n % 100 is 3…10, many when n % 100 is
 * 11…99, other the rest (100, 101, 102, 200, …).
 */
export function arabicPlural(n) {
  if (n === 0) return 'zero';
  if (n === 1) return 'one';
  if (n === 2) return 'two';
  if (n % 100 >= 3 && n % 100 <= 10) return 'few';
  if (n % 100 >= 11) return 'many';
  return 'other';
}

/** The verb agrees with how many: one, two (the dual) or more. */
const arabicByNumber = (n, one, two, more) => (n === 1 ? one : n === 2 ? two : more);
// Names and counts are interpolated as given: a count's digits are Western (0-9). No count here is ever 0
// (replying counts 1 or more, people 2 or more, others 1 or more): the zero form is never said.
const arabicPeople = (n) =>
  ({ one: 'شخص واحد', two: 'شخصان', few: `${n} أشخاص`, many: `${n} شخصًا` })[arabicPlural(n)] ?? `${n} شخص`;
const arabicOthers = (n) =>
  ({ one: 'شخص آخر', two: 'شخصان آخران', few: `${n} أشخاص آخرين`, many: `${n} شخصًا آخر` })[arabicPlural(n)] ?? `${n} شخص آخر`;
const arabicDoing = [
  activityWords({
    typing: 'يكتب', thinking: 'يفكر', usingTool: (t) => `يستخدم ${t}`, aTool: 'أداة', recording: 'يسجل رسالة صوتية',
    uploading: 'يرفع ملفًا',
  }),
  activityWords({
    typing: 'يكتبان', thinking: 'يفكران', usingTool: (t) => `يستخدمان ${t}`, aTool: 'أداة', recording: 'يسجلان رسالة صوتية',
    uploading: 'يرفعان ملفًا',
  }),
  activityWords({
    typing: 'يكتبون', thinking: 'يفكرون', usingTool: (t) => `يستخدمون ${t}`, aTool: 'أداة', recording: 'يسجلون رسالة صوتية',
    uploading: 'يرفعون ملفًا',
  }),
];
/**
 * Arabic: right-to-left; a name (and a tool's) stands between bidi isolates (FSI U+2068 … PDI U+2069), so
 * that a Latin name is one neutral unit of the sentence ("Alice، Bob" keeps its order) and a paragraph that
 * takes its direction from its first letter takes it from the Arabic words. Screen readers do not speak them.
 */
const arabicName = (name) => `\u2068${name}\u2069`;
const arabic = {
  replying: (n) => `${arabicPeople(n)} ${arabicByNumber(n, 'يرد', 'يردان', 'يردون')}`,
  // "Seen by", in the passive: no verb to agree with the readers.
  seenBy: (s) => `شوهدت من قبل ${s}`,
  seenCount: (n) => `شوهدت من قبل ${arabicPeople(n)}`,
  someone: 'شخص ما',
  name: arabicName,
  people: arabicPeople,
  ...conjunctionLists({ and: () => ' و', comma: '، ', otherCount: arabicOthers }),
  sentence: (subject, count, activity) => `${subject} ${arabicByNumber(count, ...arabicDoing)(activity, arabicName)}`,
};

const portugueseDoing = activityWords({
  typing: 'digitando', thinking: 'pensando', usingTool: (t) => `usando ${t}`, aTool: 'uma ferramenta', recording: 'gravando áudio',
  uploading: 'enviando um arquivo',
});
/** Brazilian Portuguese. */
const portuguese = {
  replying: (n) => (n === 1 ? '1 pessoa está respondendo' : `${n} pessoas estão respondendo`),
  seenBy: (s) => `Visto por ${s}`,
  someone: 'Alguém',
  people: (n) => `${n} pessoas`,
  ...conjunctionLists({ and: () => ' e ', otherCount: (n) => (n === 1 ? 'mais 1 pessoa' : `mais ${n} pessoas`) }),
  sentence: (subject, count, activity) => `${subject} ${count > 1 ? 'estão' : 'está'} ${portugueseDoing(activity)}`,
};

const italianDoing = activityWords({
  typing: 'scrivendo', thinking: 'pensando', usingTool: (t) => `usando ${t}`, aTool: 'uno strumento',
  recording: 'registrando un audio', uploading: 'caricando un file',
});
const italian = {
  replying: (n) => (n === 1 ? '1 persona sta rispondendo' : `${n} persone stanno rispondendo`),
  seenBy: (s) => `Visto da ${s}`,
  someone: 'Qualcuno',
  people: (n) => `${n} persone`,
  ...conjunctionLists({ and: () => ' e ', otherCount: (n) => (n === 1 ? "un'altra persona" : `altre ${n} persone`) }),
  sentence: (subject, count, activity) => `${subject} ${count > 1 ? 'stanno' : 'sta'} ${italianDoing(activity)}`,
};

const chineseDoing = activityWords({
  typing: '正在输入', thinking: '正在思考', usingTool: (t) => `正在使用${t}`, aTool: '工具', recording: '正在录音',
  uploading: '正在上传文件',
});
/** Simplified Chinese: no plural; "等N人" counts everyone, the named ones too ("Alice、Bob等4人"). */
const simplifiedChinese = {
  replying: (n) => `${n}人正在回复`,
  seenBy: (s) => `${s}已读`,
  seenCount: (n) => `${n}人已读`,
  someone: '某人',
  separator: '。',
  people: (n) => `${n}人`,
  pair: (a, b) => `${a}和${b}`,
  triple: (a, b, c) => `${a}、${b}和${c}`,
  twoAndOthers: (a, b, n) => `${a}、${b}等${n + 2}人`,
  oneAndOthers: (a, n) => `${a}等${n + 1}人`,
  sentence: (subject, _count, activity) => `${subject}${chineseDoing(activity)}`,
};

const koreanDoing = activityWords({
  typing: '입력 중', thinking: '생각 중', usingTool: (t) => `${t} 사용 중`, aTool: '도구', recording: '녹음 중',
  uploading: '파일 업로드 중',
});
/** Korean: no plural, and no particle after the subject (이/가 hangs on how a name ends, which a Latin name does not tell). */
const korean = {
  replying: (n) => `${n}명 답장 중`,
  seenBy: (s) => `${s} 읽음`,
  seenCount: (n) => `${n}명 읽음`,
  someone: '누군가',
  people: (n) => `${n}명`,
  pair: (a, b) => `${a}, ${b}`,
  triple: (a, b, c) => `${a}, ${b}, ${c}`,
  twoAndOthers: (a, b, n) => `${a}, ${b} 외 ${n}명`,
  oneAndOthers: (a, n) => `${a} 외 ${n}명`,
  sentence: (subject, _count, activity) => `${subject} ${koreanDoing(activity)}`,
};

const LANGUAGES = Object.freeze({
  en: english,
  de: german,
  fr: french,
  es: spanish,
  ja: japanese,
  ar: arabic,
  pt: portuguese,
  it: italian,
  'zh-Hans': simplifiedChinese,
  ko: korean,
});

/** The supported language codes. */
export const LOCALES = Object.freeze(Object.keys(LANGUAGES));

/**
 * The supported language for a locale identifier ("fr", "fr-CA", "ja_JP"), or null. Chinese is Simplified
 * Chinese ("zh-Hans") when the identifier says so or says nothing of the script ("zh", "zh-CN", "zh-SG",
 * "zh-Hans-CN"); Traditional Chinese ("zh-Hant", "zh-TW", "zh-HK", "zh-MO") is not supported: null.
 * @param {string} identifier
 * @returns {string|null}
 */
export function localeFor(identifier) {
  const text = String(identifier ?? '');
  const code = (text.match(/^\p{L}*/u)[0] ?? '').toLowerCase();
  if (code === 'zh') {
    // The script if given (4 letters), else the region: Taiwan, Hong Kong and Macau write Traditional.
    const subtags = text.split(/[-_]/).slice(1).map((s) => s.toLowerCase());
    const script = subtags.find((s) => s.length === 4);
    if (script !== undefined) return script === 'hans' ? 'zh-Hans' : null;
    return subtags.some((s) => ['tw', 'hk', 'mo'].includes(s)) ? null : 'zh-Hans';
  }
  return Object.hasOwn(LANGUAGES, code) ? code : null;
}

const segmenter = typeof Intl !== 'undefined' && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

/** The user-perceived characters of a string (Swift's `Character`s). */
function characters(text) {
  return segmenter ? Array.from(segmenter.segment(text), (s) => s.segment) : Array.from(text);
}

const isBlank = (name) => name == null || characters(name).every(isWhitespace);
const isActive = (typer) => (typer.activity ?? 'typing') !== 'none';
/** Two typers do the same thing: the same activity, and for tools the same tool. */
const sameActivity = (a, b) =>
  (a.activity ?? 'typing') === (b.activity ?? 'typing') && (a.activity !== 'tool' || (a.detail ?? null) === (b.detail ?? null));

/**
 * Formats the indicator's text.
 *
 * A typer is `{userID?, name?, activity?, detail?}`: `activity` is the wire name ("typing", "thinking",
 * "tool", "recording", "uploading", "none"; default "typing"), `detail` the tool's name.
 *
 * Rules (the same as the Swift TypingText): no one active gives null; 1, 2 and 3 names, then two names and
 * a count ("Alice, Bob, and 2 others are typing…"); the compact style names one beside two or more others;
 * names over `maxNameLength` characters are cut, the ellipsis included; a blank name is "Someone", and
 * when no name is known "3 people"; mixed activities get one sentence each, joined by " · ".
 */
export class TypingText {
  /**
   * @param {{style?: 'full'|'compact', maxNameLength?: number, locale?: string}} [options]
   */
  constructor({ style = 'full', maxNameLength = 15, locale = 'en' } = {}) {
    this.style = STYLES.includes(style) ? style : 'full';
    this.maxNameLength = Math.max(2, maxNameLength);
    this.locale = localeFor(locale) ?? 'en';
    const language = LANGUAGES[this.locale];
    this.rules = { separator: '. ', name: (n) => n, seenCount: (n) => language.seenBy(String(n)), ...language };
  }

  /**
   * The visible text, or null when no one is active.
   * @param {Array<object>} typers The active members in display order.
   * @param {number} [total] How many are active in all, if the server listed fewer than it counted.
   */
  text(typers, total) {
    return this.#compose(typers, total, false);
  }

  /** The text for assistive technology (aria-live): no ellipsis, names uncut. */
  accessibilityText(typers, total) {
    return this.#compose(typers, total, true);
  }

  /** What a message shows while `count` people write in its thread ("2 people are replying…"); null for none. */
  replyingText(count) {
    return count > 0 ? `${this.rules.replying(count)}…` : null;
  }

  /** The same for assistive technology: no ellipsis. */
  accessibilityReplyingText(count) {
    return count > 0 ? this.rules.replying(count) : null;
  }

  /**
   * "Seen by Alice and Bob" under a message: its readers' names in the order they read, listed as typers
   * are ("Seen by Alice, Bob, and 2 others"; a blank name is "Someone"); null for none.
   * @param {Array<string|null>} names
   */
  seenText(names) {
    return names.length === 0 ? null : this.rules.seenBy(this.#subject(names, names.length, false));
  }

  /** The same for assistive technology: names not cut. */
  accessibilitySeenText(names) {
    return names.length === 0 ? null : this.rules.seenBy(this.#subject(names, names.length, true));
  }

  /** "Seen by 37": in a group too large to name its readers, how many have read a message; null for none. */
  seenCountText(count) {
    return count > 0 ? this.rules.seenCount(count) : null;
  }

  #compose(typers, total, accessible) {
    const active = typers.filter(isActive);
    const unlisted = Math.max(0, (total ?? active.length) - active.length);
    const finish = (sentence) => (accessible ? sentence : `${sentence}…`);
    if (active.length === 0) {
      return unlisted > 0 ? finish(this.#sentence([], unlisted, { activity: 'typing' }, accessible)) : null;
    }
    const groups = [];
    for (const typer of active) {
      const group = groups.find((g) => sameActivity(g.activity, typer));
      if (group) group.members.push(typer);
      else groups.push({ activity: { activity: typer.activity ?? 'typing', detail: typer.detail }, members: [typer] });
    }
    const sentences = groups.map((group, index) =>
      finish(this.#sentence(group.members, index === 0 ? unlisted : 0, group.activity, accessible)),
    );
    return sentences.join(accessible ? this.rules.separator : ' · ');
  }

  #sentence(members, unlisted, activity, accessible) {
    const count = members.length + unlisted;
    return this.rules.sentence(this.#subject(members.map((m) => m.name), count, accessible), count, activity);
  }

  /** "Alice", "Alice and Bob", "Alice, Bob, and 2 others", "3 people": `count` members, the first named so. */
  #subject(names, count, accessible) {
    const rules = this.rules;
    if (count >= 2 && names.every(isBlank)) return rules.people(count);
    const named = this.style === 'full' ? (count <= 3 ? count : 2) : count <= 2 ? count : 1;
    const shown = names.slice(0, named).map((n) => {
      const name = this.displayName(n, accessible);
      return name === null ? rules.someone : rules.name(name);
    });
    if (shown.length === 0) return rules.someone;
    if (count === 1) return shown[0];
    if (count === 2 && shown.length === 2) return rules.pair(shown[0], shown[1]);
    if (count === 3 && shown.length === 3) return rules.triple(shown[0], shown[1], shown[2]);
    if (shown.length === 1) return rules.oneAndOthers(shown[0], count - 1);
    return rules.twoAndOthers(shown[0], shown[1], count - 2);
  }

  /**
   * A name as shown: trimmed, null if blank, cut to `maxNameLength` characters (the last one an
   * ellipsis, no space before it) unless for assistive technology.
   * @param {string|null|undefined} name
   * @param {boolean} [accessible]
   */
  displayName(name, accessible = false) {
    if (name == null) return null;
    const all = characters(name);
    const start = all.findIndex((c) => !isWhitespace(c));
    if (start < 0) return null;
    let end = all.length;
    while (isWhitespace(all[end - 1])) end -= 1;
    const trimmed = all.slice(start, end);
    if (accessible || trimmed.length <= this.maxNameLength) return trimmed.join('');
    const kept = trimmed.slice(0, this.maxNameLength - 1);
    while (isWhitespace(kept[kept.length - 1])) kept.pop();
    return `${kept.join('')}…`;
  }
}
