// Small DOM helpers shared by the page's views.

/**
 * Creates an element.
 * @param {string} tag
 * @param {Record<string, any>} [attributes] `class`, `text`, `dataset` and any attribute.
 * @param {Array<Node|string|null>} [children]
 */
export function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'style') node.style.cssText = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

const PALETTE = ['#5b5bd6', '#0f9d8a', '#e0719a', '#3b82c4', '#c78a1c', '#8e5bd6', '#d9534f', '#2f9e44'];

/**
 * A stable colour for a user id: the top bits of the id's FNV-1a hash pick one of eight. The salt only
 * spreads the demo's six users over six different colours.
 */
export function colorFor(id) {
  let hash = 0x811c9dc5;
  for (const character of `12:${id}`) hash = Math.imul(hash ^ character.codePointAt(0), 0x01000193) >>> 0;
  return PALETTE[hash >>> 29];
}

/** One or two initials of a name ("Alice" → "A", "Mary Jane" → "MJ"). */
export function initials(name) {
  const words = String(name ?? '?').trim().split(/\s+/u).filter(Boolean);
  const letters = words.slice(0, 2).map((word) => Array.from(word)[0]);
  return (letters.join('') || '?').toUpperCase();
}

/**
 * An avatar: initials on the user's colour, with a presence dot when `online` is a boolean.
 * @param {{id: string, name?: string|null, online?: boolean, bot?: boolean}} person
 */
export function avatar({ id, name, online, bot = false }) {
  const node = el('span', { class: bot ? 'avatar bot' : 'avatar', 'aria-hidden': 'true', text: bot ? '✦' : initials(name ?? id) });
  if (!bot) node.style.setProperty('--avatar', colorFor(id));
  if (typeof online === 'boolean') {
    node.append(el('span', { class: 'presence-dot', dataset: { testid: `presence-${id}`, user: id, online: String(online) } }));
  }
  return node;
}

/** Fills an existing avatar element in place (the header's and the sidebar's own). */
export function paintAvatar(node, person) {
  node.replaceWith(Object.assign(avatar(person), { id: node.id }));
}

/** "14:05" for a server time in milliseconds. */
export function clock(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}
