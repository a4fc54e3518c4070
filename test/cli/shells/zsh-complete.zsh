# A real zsh, completing a line as a user's Tab would: an interactive zsh in a
# pseudo-terminal (zpty) loads compinit and the generated _news, the line is
# typed, Tab pressed, and every match zsh adds is written to a file.
# Usage: zsh -f zsh-complete.zsh SCRIPT OUTFILE 'news search --sen'
zmodload zsh/zpty
script=$1 out=$2 line=$3
setup=$(mktemp)
cat > $setup <<SETUP
PS1='' PROMPT='' RPROMPT=''
autoload -Uz compinit && compinit -u -d ${out}.zcompdump
source ${(q)script}
compadd() {
  if [[ \${@[(I)-(O|A|D)]} -gt 0 ]]; then builtin compadd "\$@"; return; fi
  local -a __hits
  builtin compadd -A __hits "\$@"
  print -rl -- \$__hits >> ${(q)out}
  builtin compadd "\$@"
}
zstyle ':completion:*' list-grouped false
bindkey '^I' complete-word
print -r -- READY
SETUP
zpty z zsh -f -i
zpty -w z "source ${(q)setup}"
local got
for i in {1..200}; do
  zpty -r -t z got 2>/dev/null && [[ $got == *READY* ]] && break
  sleep 0.05
done
: > $out.started
zpty -w -n z "$line"$'\t'
# Wait for the matches to land (the completion runs `news __complete`).
for i in {1..200}; do
  [[ -s $out ]] && { sleep 0.3; break }
  sleep 0.05
done
zpty -d z
rm -f $setup
