// A file name as a tool prints it: a name holding a line break or another control character is
// printed as a JSON string ("a\nb.txt"), so one name stays one line and the model can pass the same
// string back as a path; every other name is printed as it is.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function shownName(name: string): string {
  return CONTROL.test(name) ? JSON.stringify(name) : name;
}
