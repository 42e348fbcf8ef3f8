// TypeDoc plugin (typedoc.json "plugin"): every documented function of a public entry has an
// `@example`. A missing one is a warning, and typedoc.json treats warnings as errors. The
// examples themselves are compiled by scripts/readme-snippets.mjs.
import { Converter, ReflectionKind } from 'typedoc';

const hasExample = (comment) => Boolean(comment?.blockTags.some((tag) => tag.tag === '@example'));

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    for (const reflection of context.project.getReflectionsByKind(ReflectionKind.Function)) {
      const signatures = /** @type {import('typedoc').DeclarationReflection} */ (reflection).signatures ?? [];
      if (hasExample(reflection.comment) || signatures.some((signature) => hasExample(signature.comment))) continue;
      app.logger.warn(`${reflection.getFriendlyFullName()} has no @example: add a complete \`\`\`ts block under @example in its TSDoc comment`);
    }
  });
}
