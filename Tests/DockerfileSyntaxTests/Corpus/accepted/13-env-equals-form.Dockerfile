# Covers: ENV K=V K2="a b" (pair form): quotes, escapes, empty values, several pairs, continued lines.
FROM alpine
ENV A=1
ENV B=2 C="two words" D='single quoted' E=
ENV F="say \"hi\"" G=a\ b H="tab\there"
ENV I=x=y=z
ENV J="${A:-default}" K=$B L=\$NOT
ENV M="multi \
line"
ENV N=1 \
    O=2 \
    P=3
ENV Q=""
ENV R="embedded 'single'" S='embedded "double"'
ENV T=a"b c"d U='it'"'"'s'
ENV V="trailing backslash \\"
