class Tally {
  #n = 0;
  add(k) { this.#n += k; return this; }
  get value() { return this.#n; }
}
const t = new Tally();
for (const f of await tools.github.list_issues({ repo: "acme/app" })) t.add(f.comments);
return t.value;
