const issues = await tools.github.list_issues({ repo: "acme/app" });
let score: number = 0;
outer: for (const issue of issues) {
  for (const label of issue.labels) {
    switch (label) {
      case "urgent": score += 10; continue outer;
      case "bug": score += 3; break;
      default: score += 1;
    }
  }
}
return score;
