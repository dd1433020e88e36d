# bash completion for c2cbench (installed by make install). It asks the binary itself: the commands
# from `c2cbench help`, benches, placements and presets from `c2cbench list`, each bench's and
# command's options from its --help, and an option's choices from the [a,b,c] list its help entry
# shows, so it stays true to the build it completes.
_c2cbench() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} bin=${COMP_WORDS[0]} help
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "$("$bin" help 2>/dev/null | awk '/^  [a-z]/{print $1}') --help --version -V" -- "$cur"))
    return
  fi
  local cmd=${COMP_WORDS[1]}
  case "$cmd" in
    run)
      if [ "$COMP_CWORD" -eq 2 ]; then
        COMPREPLY=($(compgen -W "$("$bin" list 2>/dev/null | awk '/^bench /{print $2}')" -- "$cur"))
        return
      fi
      help=$("$bin" run "${COMP_WORDS[2]}" --help 2>/dev/null) ;;
    slurm)
      if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=($(compgen -W "submit status" -- "$cur")); return; fi
      help=$("$bin" slurm "${COMP_WORDS[2]}" --help 2>/dev/null) ;;
    *) help=$("$bin" "$cmd" --help 2>/dev/null) ;;
  esac
  case "$prev" in
    --out|--meta|--matrix|-o|--results|--resume|--bin)
      COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --placement) # the placements table, as `c2cbench list` prints it
      COMPREPLY=($(compgen -W "$("$bin" list 2>/dev/null | awk '/^placement /{print $2}')" -- "$cur"))
      return ;;
    --*)
      local line choices
      # the option's entry: its line and the lines its text is wrapped onto
      line=$(printf '%s\n' "$help" | awk -v o="$prev" 'on && /^      /{sub(/^ +/, " "); printf "%s", $0; next}
        on{exit} /^  --/ && $1==o{on=1; printf "%s", $0}')
      case "$line" in
        "  $prev "[A-Z]*|"  $prev "*"|"*)
          choices=$(printf '%s\n' "$line" | sed -n 's/.*\[\([^]]*\)\].*/\1/p' | tr ',' ' ')
          [ -n "$choices" ] && COMPREPLY=($(compgen -W "$choices" -- "$cur"))
          return ;;
      esac ;;
  esac
  if [[ "$cur" != -* && "$cmd" = preset ]]; then
    COMPREPLY=($(compgen -W "$("$bin" list 2>/dev/null | awk '/^preset /{print $2}')" -- "$cur") $(compgen -f -X '!*.ini' -- "$cur"))
    return
  fi
  if [[ "$cur" != -* && ( "$cmd" = compare || "$cmd" = report || "$cmd" = summary ) ]]; then
    COMPREPLY=($(compgen -f -- "$cur"))
    return
  fi
  COMPREPLY=($(compgen -W "$(printf '%s\n' "$help" | grep -oE -- '^  --[a-z0-9-]+' | sed 's/^  //') --help" -- "$cur"))
}
complete -F _c2cbench c2cbench
