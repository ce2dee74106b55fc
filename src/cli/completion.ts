// `switchboard completion bash|zsh`: a completion script made from the commands as they are declared,
// so it never falls behind them. Load it with: eval "$(switchboard completion bash)".
import type { Command } from 'commander'
import { invalid } from '../core/errors.js'

/** Words that may follow each command path (`''` is the top level): sub-commands and flags. */
function completions(
  command: Command,
  path = '',
  table = new Map<string, string[]>(),
): Map<string, string[]> {
  const words = [
    ...command.commands.map((c) => c.name()),
    // A hidden option is for Switchboard's own use (autostart's serve --unless-stopped), not a person's.
    ...command.options
      .filter((o) => !o.hidden)
      .flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f))),
  ]
  if (command.commands.length || command.options.length) words.push('--help')
  table.set(path, words)
  for (const sub of command.commands) completions(sub, path ? `${path} ${sub.name()}` : sub.name(), table)
  return table
}

function bashScript(program: Command): string {
  const cases = [...completions(program)]
    .map(([path, words]) => `    "${path}") words="${words.join(' ')}" ;;`)
    .join('\n')
  return `# switchboard completion for bash (and zsh through bashcompinit)
_switchboard_words() {
  case "$1" in
${cases}
    *) words="" ;;
  esac
}
_switchboard() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" word words i
  _switchboard_words ""
  # The command path so far: the words before the cursor that name a sub-command.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ "$word" == -* ]] && continue
    case " $words " in *" $word "*) path="\${path:+$path }$word"; _switchboard_words "$path" ;; esac
  done
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _switchboard switchboard
`
}

export function registerCompletion(program: Command): void {
  program
    .command('completion <shell>')
    .description('prints a shell completion script (bash or zsh): eval "$(switchboard completion bash)"')
    .action((shell: string) => {
      const script = bashScript(program)
      if (shell === 'bash') process.stdout.write(script)
      else if (shell === 'zsh') process.stdout.write(`autoload -U +X bashcompinit && bashcompinit\n${script}`)
      else throw invalid(`completion for "${shell}": bash and zsh are supported`)
    })
}
