// What counts as a JSON body's media type: application/json or any application/*+json.
export const isJsonContentType = (type: string): boolean => /^application\/([\w.+-]+\+)?json\b/i.test(type);
