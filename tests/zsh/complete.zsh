# Completes command lines in a real interactive zsh (zpty, compinit, the completion from FPATH_DIR)
# and prints what compsys offered: "== LINE", then one candidate a line. For test_install.c.
#   zsh -f tests/zsh/complete.zsh FPATH_DIR LINE...
# Exit 3 when this zsh has no zpty module; 4 when the shell did not answer in 300 s (a slow emulated guest).
zmodload zsh/zpty 2>/dev/null || { print -u2 "zsh has no zsh/zpty module"; exit 3 }
export C2C_ZSH_FPATH=$1 C2C_ZSH_OUT=$(mktemp)
shift

# Read the terminal until the prompt (rc.zsh's ZRDY) shows: zle drops what is typed before it.
await_prompt() {
  local buf= chunk
  integer tries
  for (( tries = 0; tries < 3000; tries++ )); do
    while zpty -rt z chunk 2>/dev/null; do buf+=$chunk; done
    [[ $buf == *ZRDY* ]] && return 0
    sleep 0.1
  done
  print -u2 "zsh did not answer: ${(q)buf}"
  cat $C2C_ZSH_OUT >&2
  exit 4
}

zpty z zsh -f -i
rc=${0:A:h}/rc.zsh
zpty -w z "source ${(q)rc}"
await_prompt
for line in "$@"; do
  print -r -- "== $line" >> $C2C_ZSH_OUT
  zpty -w -n z "$line"$'\t'
  zpty -w z $'\C-u'": done"
  await_prompt
done
zpty -d z
cat $C2C_ZSH_OUT
rm -f $C2C_ZSH_OUT
