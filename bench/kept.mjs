// Sections of BENCHMARKS.md that another script writes (bench/volume.mjs: sending at volume, which
// needs a Redis server and several processes) sit between the lines `<!-- kept: name -->` and
// `<!-- /kept: name -->` (each marker a line of its own). run.mjs rewrites the file and carries over
// the sections it is told to, after what it generates, in their order; any other is dropped.

const SECTION = /^<!-- kept: ([\w.-]+) -->\n[\s\S]*?^<!-- \/kept: \1 -->$/gm;

/**
 * The marked sections of `text` (only those named in `names`, when given); throws when one is
 * opened and never closed (it would be lost).
 */
export function keptSections(text, names) {
  const sections = [...text.matchAll(SECTION)].map((match) => ({ name: match[1], text: match[0] }));
  const closed = new Set(sections.map((section) => section.name));
  for (const [, name] of text.matchAll(/^<!-- kept: ([\w.-]+) -->$/gm)) {
    if (!closed.has(name)) throw new Error(`BENCHMARKS.md: the section <!-- kept: ${name} --> has no <!-- /kept: ${name} -->; close it, or nothing is written (it would be lost).`);
  }
  return sections.filter((section) => !names || names.includes(section.name)).map((section) => section.text);
}

/** `generated` followed by the sections of `previous` named in `names`. */
export function withKeptSections(generated, previous, names) {
  const sections = keptSections(previous, names);
  return sections.length ? `${generated.trimEnd()}\n\n${sections.join('\n\n')}\n` : `${generated.trimEnd()}\n`;
}
