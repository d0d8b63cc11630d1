# Covers: several heredocs on one line, read in order; the same name used twice.
FROM alpine
RUN <<A cat && <<B cat
a body
A
b body
B
RUN <<FILE1 cat > /file1 && <<FILE2 cat > /file2
I am
first
FILE1
I am
second
FILE2
RUN <<EOF cat && <<EOF cat
first EOF body
EOF
second EOF body
EOF
COPY <<EOF1 <<EOF2 /dest/
one
EOF1
two
EOF2
