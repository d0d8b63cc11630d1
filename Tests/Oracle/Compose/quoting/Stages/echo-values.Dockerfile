# summary: Prints its parameters, to prove that BuildKit reads bound values back exactly
# param PLAIN: a value that needs no quotes
# param SPACES: a value with spaces and tabs
# param EQUALS: a value with = signs
# param DOLLAR: a value with $ references that must stay literal
# param QUOTES: a value with both quote characters
# param BACKSLASHES: a value with backslashes
# param EMPTY: an empty value
ARG PLAIN
ARG SPACES
ARG EQUALS
ARG DOLLAR
ARG QUOTES
ARG BACKSLASHES
ARG EMPTY=unset
RUN printf '%s\n' "$PLAIN" "$SPACES" "$EQUALS" "$DOLLAR" "$QUOTES" "$BACKSLASHES" "$EMPTY"
