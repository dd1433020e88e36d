# Sourced by the interactive zsh that complete.zsh drives: compinit with the completion under test,
# and compadd recording every candidate compsys is given (then adding it as usual).
PS1=ZRDY RPS1='' # the prompt complete.zsh waits for
LISTMAX=100000 # list every match, never ask
unsetopt beep
fpath=($C2C_ZSH_FPATH $fpath)
autoload -U compinit && compinit -u -D
# The candidates offered, one a line; calls that only collect matches (-O, -A, -D) pass through.
compadd() {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
    builtin compadd "$@"
    return
  fi
  local -a __hits
  builtin compadd -O __hits "$@"
  (( $#__hits )) && print -rl -- $__hits >> $C2C_ZSH_OUT
  builtin compadd "$@"
}
