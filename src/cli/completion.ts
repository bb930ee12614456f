/**
 * `porchlight completion bash|zsh|fish`: a shell script completing the registered commands, their verbs
 * and flags (from commands.ts; cobra's `completion` command, without the runtime callback: the tree is
 * small and static, so the script carries it).
 */
import { COMMANDS, flagsOf, UsageError, verbsOf } from "./commands.js";

const SHELLS = ["bash", "zsh", "fish"] as const;

/** Each command path ("" for the top) with the words that may follow it: its verbs and its flags. */
function completionTable(): { path: string; verbs: string[]; flags: string[] }[] {
  const top = { path: "", verbs: verbsOf("").map((c) => c.path), flags: ["--help", "--version"] };
  return [
    top,
    ...COMMANDS.map((c) => ({
      path: c.path,
      verbs: verbsOf(c.path).map((v) => v.path.split(" ").at(-1) ?? ""),
      flags: flagsOf(c.usage).filter((f) => f.startsWith("--")),
    })),
  ];
}

/** Quotes a word list for a single-quoted shell string (the words are [a-z-] only). */
const words = (list: string[]): string => list.join(" ");

function bashScript(): string {
  const cases = completionTable()
    .map((e) => `    "${e.path}") cands='${words([...e.verbs, ...e.flags])}' ;;`)
    .join("\n");
  return `# bash completion for porchlight (porchlight completion bash)
_porchlight() {
  local cur path="" w i cands
  cur="\${COMP_WORDS[COMP_CWORD]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    case "\${path:+$path }$w" in
${completionTable()
  .filter((e) => e.path !== "")
  .map((e) => `      "${e.path}") path="${e.path}" ;;`)
  .join("\n")}
      *) break ;;
    esac
  done
  case "$path" in
${cases}
    *) cands='' ;;
  esac
  COMPREPLY=($(compgen -W "$cands" -- "$cur"))
  [[ \${#COMPREPLY[@]} -eq 0 && "$cur" != -* ]] && COMPREPLY=($(compgen -f -- "$cur"))
  return 0
}
complete -o filenames -F _porchlight porchlight
`;
}

function zshScript(): string {
  const cases = completionTable()
    .map((e) => `    "${e.path}") cands=(${words([...e.verbs, ...e.flags])}) ;;`)
    .join("\n");
  return `#compdef porchlight
# zsh completion for porchlight (porchlight completion zsh)
_porchlight() {
  local cmdpath="" w i
  local -a cands
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    [[ "$w" == -* ]] && continue
    if (( \${+_porchlight_paths[\${cmdpath:+$cmdpath }$w]} )); then cmdpath="\${cmdpath:+$cmdpath }$w"; else break; fi
  done
  case "$cmdpath" in
${cases}
  esac
  compadd -- $cands
  _files
}
typeset -gA _porchlight_paths
_porchlight_paths=(${completionTable()
    .filter((e) => e.path !== "")
    .map((e) => `"${e.path}" 1`)
    .join(" ")})
compdef _porchlight porchlight
`;
}

function fishScript(): string {
  const lines = [
    "# fish completion for porchlight (porchlight completion fish)",
    "complete -c porchlight -f",
  ];
  for (const e of completionTable()) {
    const depth = e.path === "" ? 0 : e.path.split(" ").length;
    const cond =
      e.path === ""
        ? "__fish_use_subcommand"
        : `__fish_seen_subcommand_from ${e.path.split(" ").at(-1)}; and test (count (commandline -opc)) -ge ${depth + 1}`;
    for (const verb of e.verbs) lines.push(`complete -c porchlight -n '${cond}' -a ${verb}`);
    for (const flag of e.flags) lines.push(`complete -c porchlight -n '${cond}' -l ${flag.slice(2)}`);
  }
  lines.push("complete -c porchlight -F");
  return `${lines.join("\n")}\n`;
}

/** The completion script for `shell`. @throws UsageError for another shell. */
export function completionScript(shell: string | undefined): string {
  switch (shell) {
    case "bash":
      return bashScript();
    case "zsh":
      return zshScript();
    case "fish":
      return fishScript();
    default:
      throw new UsageError(
        shell === undefined
          ? `a shell is required: ${SHELLS.join(", ")}`
          : `unsupported shell ${JSON.stringify(shell)}: ${SHELLS.join(", ")}`,
      );
  }
}

/** Entry point (`porchlight completion <shell>`). */
export async function run(argv: string[]): Promise<number> {
  const [shell, ...extra] = argv;
  if (extra.length > 0) throw new UsageError(`one shell expected, got ${[shell, ...extra].join(" ")}`);
  process.stdout.write(completionScript(shell));
  return 0;
}
