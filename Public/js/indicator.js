// The typing indicator under the last message: three dots fading in sequence and the text, faded in and
// out in 0.2 s (style.css). Its row keeps its height when empty, so showing it moves nothing. The visible
// text is hidden from screen readers; a polite live region beside it says the accessibility text.

export class TypingIndicator {
  /**
   * @param {HTMLElement} root The indicator (`data-visible` "true" or "false").
   * @param {HTMLElement} textNode Where the visible text goes.
   * @param {HTMLElement} liveRegion The `aria-live="polite"` element.
   */
  constructor(root, textNode, liveRegion) {
    this.root = root;
    this.textNode = textNode;
    this.liveRegion = liveRegion;
  }

  /**
   * Shows the text, or hides the indicator when `text` is null. While it fades out, the last text stays.
   * @param {string|null} text
   * @param {string|null} accessibilityText
   * @param {string} [activity] The first typer's activity, for the dots' colour.
   */
  render(text, accessibilityText, activity = 'typing') {
    const visible = text !== null;
    if (visible) {
      if (this.textNode.textContent !== text) this.textNode.textContent = text;
      this.root.dataset.activity = activity;
      this.root.title = accessibilityText ?? '';
    }
    this.root.dataset.visible = String(visible);
    const spoken = visible ? accessibilityText ?? '' : '';
    if (this.liveRegion.textContent !== spoken) this.liveRegion.textContent = spoken;
  }
}
