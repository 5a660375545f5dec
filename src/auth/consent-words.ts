// What a control of a sign-in page means, read from its name, value, text and accessible name: allow (go on
// and grant), deny (refuse or cancel), or neither (a plain "Sign in", "Continue"). Words of the common
// languages (en, fr, de, es, it, pt, nl), matched on whole words without accents, by stem so that conjugated
// forms count ("Autorizo", "Akzeptieren", "Ich stimme zu"). Deny wins: "Don't allow" is no consent.

export type Decision = 'allow' | 'deny';

const wordList = (list: string): string[] => list.split(' ');

/** Stems of refusal, en fr de es it pt nl: deny, refuse/refuser, cancel/annuler, ablehnen, rechazar, rifiuta... */
const DENY_STEMS = wordList(
  'deny declin refus reject cancel abort dismiss annul rejet ablehn abbrech verweiger abweis rechaz deneg rifiut nega recus rejeit weiger afwijz',
);
/** Words that refuse on their own: no, non, nein, nee, nao, not, nicht, niet, (ne pas), (don't), false. */
const DENY_WORDS = new Set(wordList('no non nein nee nao not nicht niet ne don false'));
/** Stems of consent: allow, authorize, accept, approve, agree, grant, consent, Autoriser, Erlauben/Zulassen... */
const ALLOW_STEMS = wordList(
  'allow authori accept approv agree grant consent permit autoris approuv permet erlaub zulass zustimm stimme genehmig akzept gewahr autoriz acept aprob conced autorizz accett permett acconsent aceit aprov concord toesta goedkeur akkoord autoriseer',
);
/** Words that consent on their own: yes, oui, ja, si, sim. */
const ALLOW_WORDS = new Set(wordList('yes oui ja si sim'));

/** Lower-case words without accents; camelCase and snake_case split (`btnDeny`, `user_oauth_approval`). */
function words(text: string): string[] {
  return text
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
}

const says = (stems: readonly string[], exact: ReadonlySet<string>, word: string): boolean =>
  exact.has(word) || stems.some((stem) => word.startsWith(stem));

/** The decision the texts of one control express together; undefined: none (a neutral control). */
export function decisionOf(texts: readonly (string | undefined)[]): Decision | undefined {
  const all = texts.flatMap((text) => (text ? words(text) : []));
  if (all.some((word) => says(DENY_STEMS, DENY_WORDS, word))) return 'deny';
  if (all.some((word) => says(ALLOW_STEMS, ALLOW_WORDS, word))) return 'allow';
  return undefined;
}
