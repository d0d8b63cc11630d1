# Covers: pair-form ARG/ENV/LABEL split over continued lines with comments and empty lines between pairs.
FROM alpine
ARG A=1 \
    # comment between pairs
    B=2 \

    C=3
ENV X="one \
    two" Y=3
LABEL k1=v1 \
      k2="v 2" \
      k3='v 3'
