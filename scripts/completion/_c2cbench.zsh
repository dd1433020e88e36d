#compdef c2cbench
# zsh completion for c2cbench (installed by make install as site-functions/_c2cbench). Like the
# bash one it asks the binary itself: commands from `c2cbench help`, benches, placements and
# presets from `c2cbench list`, options from each bench's or command's --help, and an option's
# choices from the [a,b,c] list in its help entry, so it stays true to the build it completes.
# Native compsys (no bashcompinit), so it works from the first TAB and needs no path to the bash
# file.

# The lines of a command's output, one candidate each (nothing when the command fails).
_c2cbench_lines() {
  local out
  out=$("$@" 2>/dev/null) || return 0
  print -r -- "$out"
}

# The help text the current word is completed against: the bench's, the slurm action's or the command's.
_c2cbench_help() {
  local bin=$1 cmd=$2 sub=$3
  case $cmd in
    run|slurm) _c2cbench_lines "$bin" "$cmd" "$sub" --help ;;
    *) _c2cbench_lines "$bin" "$cmd" --help ;;
  esac
}

_c2cbench() {
  local bin=${words[1]} cmd=${words[2]} prev=${words[CURRENT-1]} cur=${words[CURRENT]} help line
  local -a cands match
  setopt localoptions nobashrematch
  if (( CURRENT == 2 )); then
    cands=(${(f)"$(_c2cbench_lines "$bin" help | awk '/^  [a-z]/{print $1}')"} --help --version -V)
    compadd -a cands
    return
  fi
  if (( CURRENT == 3 )) && [[ $cmd == run ]]; then
    cands=(${(f)"$(_c2cbench_lines "$bin" list | awk '/^bench /{print $2}')"})
    compadd -a cands
    return
  fi
  if (( CURRENT == 3 )) && [[ $cmd == slurm ]]; then
    compadd submit status
    return
  fi
  help=$(_c2cbench_help "$bin" "$cmd" "${words[3]}")
  case $prev in
    --out|--meta|--matrix|-o|--results|--resume|--bin) _files; return ;;
    --placement) # the placements table, as `c2cbench list` prints it
      cands=(${(f)"$(_c2cbench_lines "$bin" list | awk '/^placement /{print $2}')"})
      compadd -a cands
      return ;;
    --*)
      # the option's entry: its line and the lines its text is wrapped onto
      line=$(print -r -- "$help" | awk -v o="$prev" 'on && /^      /{sub(/^ +/, " "); printf "%s", $0; next}
        on{exit} /^  --/ && $1==o{on=1; printf "%s", $0}')
      if [[ $line == "  $prev "[A-Z]* || $line == "  $prev "*"|"* ]]; then
        [[ $line =~ '.*\[([^]]*)\]' ]] && cands=(${(s:,:)match[1]}) # the last [a,b,c] on the line
        (( $#cands )) && compadd -a cands
        return
      fi ;;
  esac
  if [[ $cur != -* && $cmd == preset ]]; then
    cands=(${(f)"$(_c2cbench_lines "$bin" list | awk '/^preset /{print $2}')"})
    compadd -a cands
    _files -g '*.ini'
    return
  fi
  if [[ $cur != -* && ( $cmd == compare || $cmd == report || $cmd == summary ) ]]; then
    _files
    return
  fi
  cands=(${${${(M)${(f)help}:#  --[a-z0-9-]*}#  }%%[ =]*} --help) # "  --name METAVAR  help" lines
  compadd -a cands
}

_c2cbench "$@"
