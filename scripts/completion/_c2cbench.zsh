#compdef c2cbench
# zsh completion for c2cbench: the bash completion through zsh's bashcompinit (installed by make install).
autoload -U +X bashcompinit && bashcompinit
source "@BASH_COMPLETION@"
