# Covers: quoted heredoc names <<"EOF", <<'EOF', partly quoted and backslash-escaped names.
FROM alpine
RUN <<"EOF"
echo $HOME not expanded
EOF
RUN <<'EOF'
echo '$single'
EOF
RUN <<E"O"F
partly quoted
EOF
RUN <<\EOF
escaped name
EOF
RUN <<-'EOT'
	chomped and quoted
	EOT
