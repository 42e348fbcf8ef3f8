// Building elements: every value goes in as text (text nodes, setAttribute), never as markup, so an
// SMS body or a request path is always text.

/** An element the page's HTML holds (page.html): its ids are fixed, so it is there. */
export const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

type Listeners = { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
type AttrValue = string | number | boolean | null | undefined;
/** Attributes (left out when undefined, null or false; present and empty when true) and `on`: listeners. */
export interface Attrs {
  on?: Listeners;
  [name: string]: AttrValue | Listeners;
}
/** A child: a node, or text; nothing for undefined, null, false and ''; arrays are flattened. */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

function append(el: Element, child: Child): void {
  if (child === undefined || child === null || child === false || child === '') return;
  if (Array.isArray(child)) for (const c of child as readonly Child[]) append(el, c);
  else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
}

/** h('p', { class: 'x' }, child, ...): attributes by setAttribute, text by text nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'on') for (const [type, fn] of Object.entries(value as Listeners)) el.addEventListener(type, fn as EventListener);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children) append(el, child);
  return el;
}

/** A definition list from [term, value] pairs; values that are undefined, null or '' are left out. */
export function dl(pairs: ReadonlyArray<readonly [string, Child]>, cls?: string): HTMLDListElement {
  return h('dl', { class: cls || 'facts' }, pairs.filter((p) => p[1] !== undefined && p[1] !== null && p[1] !== '').map(([t, v]) => h('div', {}, h('dt', {}, t), h('dd', {}, v))));
}

/** What each rendered element was made from: an element whose item did not change is kept. */
const made = new WeakMap<Element, string>();

/**
 * Puts one element per item in container, in order, reusing the element of a key whose item did
 * not change. A changed item's element is replaced, keeping what the user typed or opened
 * ([data-keep]) and the focus ([data-focus]).
 */
export function reconcile<T>(container: Element, items: readonly T[], keyOf: (item: T) => string | number, render: (item: T) => Element, after?: Element | null): void {
  const active = document.activeElement;
  const focusKey = active && container.contains(active) ? active.getAttribute('data-focus') : null;
  const existing = new Map<string, Element>();
  for (const child of [...container.children]) if (child.hasAttribute('data-key')) existing.set(child.getAttribute('data-key')!, child);
  let previous: Element | null = null;
  for (const item of items) {
    const key = String(keyOf(item));
    const signature = JSON.stringify(item);
    let el = existing.get(key);
    existing.delete(key);
    if (!el || made.get(el) !== signature) {
      const fresh = render(item);
      if (el) keepState(el, fresh);
      if (el) el.replaceWith(fresh);
      el = fresh;
    }
    el.setAttribute('data-key', key);
    made.set(el, signature);
    const expected: ChildNode | null = previous ? previous.nextSibling : after ? after.nextSibling : container.firstChild;
    if (el !== expected) container.insertBefore(el, expected);
    previous = el;
  }
  for (const el of existing.values()) el.remove();
  if (focusKey && !container.contains(document.activeElement)) {
    const target = [...container.querySelectorAll<HTMLElement>('[data-focus]')].find((x) => x.getAttribute('data-focus') === focusKey);
    if (target) target.focus();
  }
}

function keepState(from: Element, to: Element): void {
  for (const old of from.querySelectorAll('[data-keep]')) {
    const twin = [...to.querySelectorAll('[data-keep]')].find((x) => x.getAttribute('data-keep') === old.getAttribute('data-keep'));
    if (!twin) continue;
    if (old instanceof HTMLDetailsElement && twin instanceof HTMLDetailsElement) twin.open = old.open;
    else if ('value' in old && 'value' in twin) (twin as HTMLInputElement).value = (old as HTMLInputElement).value;
    else {
      twin.textContent = old.textContent;
      twin.className = old.className;
    }
  }
}

/** Shows the outcome of an action next to it (a role=status region: read out politely). */
export function setResult(el: Element | null, text: string, failed: boolean): void {
  if (!el) return;
  el.textContent = text;
  el.classList.toggle('error', Boolean(failed));
}
