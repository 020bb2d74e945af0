// How far one of the user's messages has gone, said for its ticks in the ten languages: "Sent", "Delivered",
// "Read". A port of TypewireCore's TypingLocale+Progress.swift; both are checked against the `progress` table
// of TestVectors/typing-text.json.

import { localeFor } from './typing-text.js';

const PROGRESS = Object.freeze({
  en: { sent: 'Sent', delivered: 'Delivered', read: 'Read' },
  de: { sent: 'Gesendet', delivered: 'Zugestellt', read: 'Gelesen' },
  fr: { sent: 'Envoyé', delivered: 'Distribué', read: 'Lu' },
  es: { sent: 'Enviado', delivered: 'Entregado', read: 'Leído' },
  ja: { sent: '送信済み', delivered: '配信済み', read: '既読' },
  ar: { sent: 'تم الإرسال', delivered: 'تم التسليم', read: 'تمت القراءة' },
  pt: { sent: 'Enviada', delivered: 'Entregue', read: 'Lida' },
  it: { sent: 'Inviato', delivered: 'Consegnato', read: 'Letto' },
  'zh-Hans': { sent: '已发送', delivered: '已送达', read: '已读' },
  ko: { sent: '전송됨', delivered: '전달됨', read: '읽음' },
});

/**
 * A message's progress in a locale's words.
 * @param {string} locale One of the typing text's locales (or a tag it maps to one).
 * @param {'sent'|'delivered'|'read'} progress
 */
export function progressText(locale, progress) {
  return (PROGRESS[localeFor(locale) ?? 'en'] ?? PROGRESS.en)[progress];
}
