# Covers: '<<' that does not start a heredoc: quoted, here-strings, a space after <<, no name, glued to a word, other instructions.
FROM alpine
RUN echo "<<EOF"
RUN echo '<<EOF'
RUN cat <<< "here string"
RUN cat << EOF
RUN echo a<<EOF
RUN <<-
RUN <<""
RUN <<"EOF'
ENV X=<<EOF
LABEL x="<<EOF"
CMD <<EOF
ENTRYPOINT cat <<EOF
WORKDIR <<EOF
RUN echo done
