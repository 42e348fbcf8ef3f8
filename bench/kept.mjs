// Sections of BENCHMARKS.md written by hand (a benchmark `npm run bench` does not run, the
// before/after of one change) sit between the lines `<!-- kept: name -->` and `<!-- /kept: name -->`
// (each marker a line of its own).
// run.mjs rewrites the file and carries them over, after what it generates, in their order.

const SECTION = /^<!-- kept: ([\w.-]+) -->\n[\s\S]*?^<!-- \/kept: \1 -->$/gm;

/** The hand-written sections of `text`; throws when one is opened and never closed (it would be lost). */
export function keptSections(text) {
  const sections = [...text.matchAll(SECTION)].map((match) => match[0]);
  const closed = new Set(sections.map((section) => /^<!-- kept: ([\w.-]+) -->/.exec(section)[1]));
  for (const [, name] of text.matchAll(/^<!-- kept: ([\w.-]+) -->$/gm)) {
    if (!closed.has(name)) throw new Error(`BENCHMARKS.md: the section <!-- kept: ${name} --> has no <!-- /kept: ${name} -->; close it, or nothing is written (it would be lost).`);
  }
  return sections;
}

/** `generated` followed by the hand-written sections of `previous`. */
export function withKeptSections(generated, previous) {
  const sections = keptSections(previous);
  return sections.length ? `${generated.trimEnd()}\n\n${sections.join('\n\n')}\n` : generated;
}
