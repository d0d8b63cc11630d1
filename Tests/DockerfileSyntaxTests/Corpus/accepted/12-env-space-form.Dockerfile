# Covers: ENV name value (legacy form): everything after the name is one value.
FROM alpine
ENV PATH /usr/local/bin:$PATH
ENV GREETING hello   big   world
ENV QUOTED "a b"  'c d'
ENV	TABBED	value	with	tabs
ENV TRAILING value with trailing spaces   
ENV A B C
ENV EQUALS_LATER value=with=equals
