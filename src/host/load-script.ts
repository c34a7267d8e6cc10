/** Loads a classic script into the page (office.js, functions.js) and resolves when it ran. */
export function loadScript(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = url;
    script.onload = () => { resolve(); };
    script.onerror = () => { reject(new Error(`could not load ${url}`)); };
    document.head.appendChild(script);
  });
}
