const text = await tools.fs.read({ path: "src/b.ts" });
const m = text.match(/import \{ (?<name>\w+) \} from '(?<from>[^']+)'/);
return m.groups;
