# Covers: instruction keywords in any letter case; cmd keeps the spelling as written.
from alpine:3.19
Run echo capitalised
rUN echo mixed
cmd ["sh"]
Entrypoint ["/bin/sh", "-c"]
env A=1
Label a=b
arg X
eXpOsE 80
user nobody
workdir /tmp
volume /data
stopsignal SIGINT
healthcheck none
Healthcheck --interval=1s cmd true
onbuild run echo later
Onbuild Copy . /src
maintainer someone
shell ["/bin/bash", "-c"]
add a /b
copy a /c
