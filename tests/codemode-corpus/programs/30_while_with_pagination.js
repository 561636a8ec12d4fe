const seen = [];
let n = 1;
while (true) {
  try {
    const issue = await tools.github.get_issue({ repo: "acme/app", number: n });
    seen.push(issue.number);
    n++;
  } catch (e) {
    break;
  }
}
return seen;
