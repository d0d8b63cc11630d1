# Covers: heredoc bodies whose lines look like instructions, comments, directives, continuations or near-terminators.
FROM alpine
RUN <<EOF
FROM x
RUN y
# not a comment, part of the body
   # indented hash
# escape=`
echo continued \
\
EOF trailing text is not the terminator
 EOF
EOF 
eof

EOF
RUN echo after
