# Covers: only whole-line comments are comments; a '#' later in a line is part of the instruction.

FROM alpine # this is not a comment
# comment
RUN echo a # not a comment either

#
#no space
   #  indented
RUN echo '#'
RUN #starts with a hash
LABEL x=#y
