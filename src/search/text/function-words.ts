// English function words: the glue of a question ("why did the build fail in CI"). In a query
// that also has content words they are not searched, so a message is not ranked up for holding
// "why", "did" and "the" (long messages and summaries hold them all), nor down for lacking them.
// A query of function words only ("not in") is searched as typed (tuning.ts's
// query.functionWords). German's and Portuguese's are used for a query
// in that language (language.ts, tuning.ts's query.languages), beside English's; all are folded
// (lower case, accents removed), as the query's words are when they are looked up.

const words = (groups: string[]) => new Set(groups.join(" ").split(" "));

export const EN_FUNCTION_WORDS: ReadonlySet<string> = words([
  // articles, determiners, quantifiers
  "a an the this that these those some any each every all both either neither such other another own same",
  // pronouns
  "i me my mine we us our ours you your yours he him his she her hers it its they them their theirs",
  // question words
  "what which who whom whose why how when where whether",
  // auxiliary and modal verbs
  "am is are was were be been being do does did have has had having will would shall should can could may might must",
  // prepositions
  "of in on at to for from by with about into onto over under after before between through during without within upon via against",
  // conjunctions and adverbs of degree
  "and or but nor so if then than as because while though although also too very just only even still yet ever",
]);

export const DE_FUNCTION_WORDS: ReadonlySet<string> = words([
  // articles, determiners
  "der die das den dem des ein eine einen einem einer eines kein keine keinen keinem keiner dieser diese dieses diesen diesem jeder jede jedes alle allen",
  // pronouns
  "ich du er sie es wir ihr mich mir dich dir uns euch sich mein meine meinen meinem dein deine sein seine unser unsere ihre ihren man",
  // question words
  "was wer wen wem wessen wie wo wohin woher warum wann welche welcher welches welchen welchem wieso weshalb womit wofur",
  // auxiliary and modal verbs
  "ist sind war waren bin bist seid wird werden wurde wurden worden hat haben hatte hatten habe hast gibt kann konnte konnen konnten muss mussen musste soll sollte sollen sollten will wollte wollen darf durfen mochte",
  // prepositions
  "fur mit von vom zu zum zur bei beim auf aus nach vor uber unter durch um an am im in ins gegen ohne seit bis zwischen wahrend",
  // conjunctions and adverbs
  "und oder aber nicht auch noch schon nur so dass da denn doch ob wenn weil damit nachdem obwohl als sondern dann jetzt hier dort sehr mal ja nein",
]);

export const PT_FUNCTION_WORDS: ReadonlySet<string> = words([
  // articles, determiners
  "o a os as um uma uns umas este esta estes estas esse essa esses essas isso isto aquele aquela aquilo todo toda todos todas outro outra outros outras",
  // pronouns
  "eu tu ele ela nos vos eles elas voce voces me te se lhe lhes meu minha meus minhas seu sua seus suas nosso nossa",
  // question words
  "que qual quais quem quando onde como porque por quanto quanta quantos quantas",
  // auxiliary verbs
  "e foi era sao ser estar esta estava estao tem ter tinha ha havia vai vou pode podia deve",
  // prepositions and contractions
  "de do da dos das em no na nos nas ao aos pelo pela pelos pelas para com sem sobre entre ate apos num numa dum duma",
  // conjunctions and adverbs
  "ou mas nem se entao tambem ja ainda muito mais menos so nao sim antes depois",
]);

/** Whether a folded query word is a function word of English or, when given, of `language` too. */
export function isFunctionWord(word: string, language?: "de" | "pt"): boolean {
  if (EN_FUNCTION_WORDS.has(word)) return true;
  return language === "de" ? DE_FUNCTION_WORDS.has(word) : language === "pt" ? PT_FUNCTION_WORDS.has(word) : false;
}
