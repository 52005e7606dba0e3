// The language of oe's messages, from the POSIX locale alone: oe's first bundle (main.ts)
// picks its prepared answers with it before any translation is loaded.

/** The bundle's language for a POSIX locale (`de_DE.UTF-8`, `zh_CN`, `C`): its first match wins, English otherwise. */
export function languageOf(env: NodeJS.ProcessEnv): 'en' | 'de' | 'zh-cn' {
  // POSIX: LC_ALL overrides LC_MESSAGES, which overrides LANG; an empty one does not count.
  const locale = [env['LC_ALL'], env['LC_MESSAGES'], env['LANG']].find((value) => value !== undefined && value !== '') ?? '';
  const tag = locale.split(/[.@]/)[0]?.toLowerCase().replace('_', '-') ?? '';
  if (tag === 'de' || tag.startsWith('de-')) return 'de';
  if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-cn';
  return 'en';
}
