/**
 * The copy buttons of /developers: one beside each code block, copying the block's text.
 * The page sends it as a file of its own (`/developers/copy-buttons.js`), since its policy
 * allows no inline script. It runs in the browser: `copyButtonsScript` is this function's
 * own source, so it is type-checked and linted with the rest; it must use nothing from
 * outside its body.
 */
export function addCopyButtons(): void {
  for (const block of document.querySelectorAll('pre')) {
    const wrapper = document.createElement('div');
    wrapper.className = 'code';
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = 'Copy';
    // Said when the text changes, for people who do not see the button.
    button.setAttribute('aria-live', 'polite');
    button.addEventListener('click', () => {
      const text = block.textContent ?? '';
      navigator.clipboard.writeText(text).then(
        () => (button.textContent = 'Copied'),
        () => (button.textContent = 'Select the text to copy it'),
      );
      setTimeout(() => (button.textContent = 'Copy'), 2000);
    });
    block.replaceWith(wrapper);
    wrapper.append(button, block);
  }
}

export const copyButtonsScript = `(${addCopyButtons.toString()})();\n`;
