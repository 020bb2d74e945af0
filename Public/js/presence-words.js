// A member's presence in a header, in the ten languages: "online", "last seen 5 minutes ago", "last seen
// recently". A port of TypewireCore's TypingLocale+Presence.swift; both are checked against the `presence`
// table of TestVectors/typing-text.json. A status is online, just_now, minutes, hours or days (with a count
// of 1 or more), or a bucket of a hidden last seen: recently, within_week, within_month, long_ago.

import { arabicPlural, localeFor } from './typing-text.js';

const UNITS = ['minutes', 'hours', 'days'];

/** A language's words: its fixed phrases, and `ago(unit, count)` for a count of minutes, hours or days. */
function words(fixed, ago) {
  return (status, count) => (UNITS.includes(status) ? ago(status, count) : fixed[status]);
}

const plural = (count, one, more) => (count === 1 ? one : more);

const PRESENCE = Object.freeze({
  en: words(
    { online: 'online', just_now: 'last seen just now', recently: 'last seen recently', within_week: 'last seen within a week',
      within_month: 'last seen within a month', long_ago: 'last seen a long time ago' },
    (unit, n) => `last seen ${n} ${plural(n, unit.slice(0, -1), unit)} ago`),
  de: words(
    { online: 'online', just_now: 'zuletzt gerade eben online', recently: 'zuletzt kürzlich online',
      within_week: 'zuletzt innerhalb einer Woche online', within_month: 'zuletzt innerhalb eines Monats online',
      long_ago: 'zuletzt vor langer Zeit online' },
    (unit, n) => `zuletzt vor ${n} ${{ minutes: plural(n, 'Minute', 'Minuten'), hours: plural(n, 'Stunde', 'Stunden'), days: plural(n, 'Tag', 'Tagen') }[unit]} online`),
  // "En ligne il y a…": no past participle, so nothing agrees with the member's gender.
  fr: words(
    { online: 'en ligne', just_now: 'en ligne à l’instant', recently: 'en ligne récemment',
      within_week: 'en ligne il y a moins d’une semaine', within_month: 'en ligne il y a moins d’un mois',
      long_ago: 'en ligne il y a longtemps' },
    (unit, n) => `en ligne il y a ${n} ${{ minutes: 'minute', hours: 'heure', days: 'jour' }[unit]}${plural(n, '', 's')}`),
  es: words(
    { online: 'en línea', just_now: 'última vez hace un momento', recently: 'última vez recientemente',
      within_week: 'última vez hace menos de una semana', within_month: 'última vez hace menos de un mes',
      long_ago: 'última vez hace mucho tiempo' },
    (unit, n) => `última vez hace ${n} ${{ minutes: plural(n, 'minuto', 'minutos'), hours: plural(n, 'hora', 'horas'), days: plural(n, 'día', 'días') }[unit]}`),
  ja: words(
    { online: 'オンライン', just_now: '最終ログイン：たった今', recently: '最終ログイン：最近', within_week: '最終ログイン：1週間以内',
      within_month: '最終ログイン：1か月以内', long_ago: '最終ログイン：かなり前' },
    (unit, n) => `最終ログイン：${n}${{ minutes: '分前', hours: '時間前', days: '日前' }[unit]}`),
  // "آخر ظهور منذ…": the noun after منذ in its plural form by count (one, two, few, many).
  ar: words(
    { online: 'متصل الآن', just_now: 'آخر ظهور الآن', recently: 'آخر ظهور مؤخرًا', within_week: 'آخر ظهور خلال أسبوع',
      within_month: 'آخر ظهور خلال شهر', long_ago: 'آخر ظهور منذ وقت طويل' },
    (unit, n) => {
      const [one, two, few, many] = {
        minutes: ['دقيقة', 'دقيقتين', 'دقائق', 'دقيقة'],
        hours: ['ساعة', 'ساعتين', 'ساعات', 'ساعة'],
        days: ['يوم', 'يومين', 'أيام', 'يومًا'],
      }[unit];
      const span = { one, two, few: `${n} ${few}` }[arabicPlural(n)] ?? `${n} ${many}`;
      return `آخر ظهور منذ ${span}`;
    }),
  pt: words(
    { online: 'online', just_now: 'visto por último agora mesmo', recently: 'visto recentemente',
      within_week: 'visto na última semana', within_month: 'visto no último mês', long_ago: 'visto há muito tempo' },
    (unit, n) => `visto por último há ${n} ${{ minutes: plural(n, 'minuto', 'minutos'), hours: plural(n, 'hora', 'horas'), days: plural(n, 'dia', 'dias') }[unit]}`),
  it: words(
    { online: 'online', just_now: 'ultimo accesso poco fa', recently: 'ultimo accesso di recente',
      within_week: 'ultimo accesso entro una settimana', within_month: 'ultimo accesso entro un mese',
      long_ago: 'ultimo accesso molto tempo fa' },
    (unit, n) => `ultimo accesso ${n} ${{ minutes: plural(n, 'minuto', 'minuti'), hours: plural(n, 'ora', 'ore'), days: plural(n, 'giorno', 'giorni') }[unit]} fa`),
  'zh-Hans': words(
    { online: '在线', just_now: '刚刚在线', recently: '最近在线', within_week: '一周内在线', within_month: '一个月内在线',
      long_ago: '很久以前在线' },
    (unit, n) => `${n}${{ minutes: '分钟', hours: '小时', days: '天' }[unit]}前在线`),
  ko: words(
    { online: '온라인', just_now: '방금 전 접속', recently: '최근 접속', within_week: '일주일 이내 접속', within_month: '한 달 이내 접속',
      long_ago: '오래 전 접속' },
    (unit, n) => `${n}${{ minutes: '분', hours: '시간', days: '일' }[unit]} 전 접속`),
});

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/**
 * A member's status at `now` (milliseconds since 1970), as TypewireCore's PresenceStatus: `{ status, count? }`,
 * or null when nothing is known (offline, never seen, or hidden by a block).
 * @param {{ online: boolean, lastSeenAt?: number, lastSeen?: string }} participant
 */
export function presenceStatus(participant, now) {
  if (participant.online) return { status: 'online' };
  if (participant.lastSeenAt !== undefined && participant.lastSeenAt !== null) {
    const ago = Math.max(0, now - participant.lastSeenAt);
    if (ago < MINUTE) return { status: 'just_now' };
    if (ago < HOUR) return { status: 'minutes', count: Math.floor(ago / MINUTE) };
    if (ago < DAY) return { status: 'hours', count: Math.floor(ago / HOUR) };
    if (ago < 7 * DAY) return { status: 'days', count: Math.floor(ago / DAY) };
    return { status: ago <= 7 * DAY ? 'within_week' : ago <= 30 * DAY ? 'within_month' : 'long_ago' };
  }
  return participant.lastSeen ? { status: participant.lastSeen } : null;
}

/**
 * "online", "last seen 5 minutes ago": a status (`presenceStatus`) in a locale's words (English for one
 * Typewire does not have).
 * @param {string} locale
 * @param {{ status: string, count?: number }} status
 */
export function presenceText(locale, { status, count }) {
  return (PRESENCE[localeFor(locale) ?? 'en'] ?? PRESENCE.en)(status, count);
}
