# Covers: RUN shell form: inner spacing, quotes, operators, hashes that are not comments, trailing spaces.
FROM alpine
RUN echo hello
RUN    echo   "many   spaces"   kept   
RUN set -eux; apt-get update && apt-get install -y curl || true
RUN echo 'single # not a comment' "double # not either" # trailing hash is part of the command
RUN echo $HOME ${PATH} \$literal 'quoted $x' "quoted ${y}"
RUN	echo	tabs	between	words
RUN if [ -f /x ]; then echo yes; else echo no; fi
RUN
