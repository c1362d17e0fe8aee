/** 'a' or 'an' before a type kind in messages ("an interface type"). */
export function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}
