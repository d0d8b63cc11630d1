FROM alpine:3.20
RUN apk add --no-cache curl bash
RUN apk update \
    && apk add --no-cache git=2.45.2-r0 openssh-client \
    && rm -rf /var/cache/apk/*
RUN apk add --no-cache --virtual .build-deps gcc musl-dev \
    && apk del .build-deps
RUN apk --no-cache add ca-certificates=20240705-r0 tzdata=2024b-r0
RUN set -eux; apk add --no-cache su-exec; echo done
USER nobody
CMD ["sh"]
