# summary: Runs a Node.js app as the user node, with its log folder, a HEALTHCHECK and CMD node server.js
# requires: node-runtime
# param APP_SOURCE: folder in the build context holding the app (server.js, package.json)
# param APP_DIR: where the app lives in the image, owned by node; also the WORKDIR
# param APP_PORT: TCP port the app listens on (exported to the app as PORT)
# param LOG_DIR: folder the app may write logs to, owned by node (exported as LOG_DIR)
# param HEALTH_PATH: HTTP path that answers 200 while the app is healthy
ARG APP_SOURCE=app/
ARG APP_DIR=/var/local/sites/myapp
ARG APP_PORT=3000
ARG LOG_DIR=/var/log/myapp
ARG HEALTH_PATH=/healthz

RUN install -d -o node -g node -m 0755 "${APP_DIR}" "${LOG_DIR}"
# --chmod: the modes a checkout gave the files (umask 0022 on one runner, 0002 on another)
# never reach the image (stagebuild verify found them in this layer). 0755, as a copied
# folder's folders get the mode too and must stay traversable.
COPY --chown=node:node --chmod=0755 ${APP_SOURCE} ${APP_DIR}/

ENV PORT=${APP_PORT} \
    LOG_DIR=${LOG_DIR} \
    HEALTH_PATH=${HEALTH_PATH}

USER node
WORKDIR ${APP_DIR}
EXPOSE ${APP_PORT}

# Node's own http module: the image needs no curl or wget.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["node", "-e", "const r=require('http').get({host:'127.0.0.1',port:process.env.PORT,path:process.env.HEALTH_PATH,timeout:4000},s=>{s.resume();process.exit(s.statusCode===200?0:1)});r.on('timeout',()=>r.destroy());r.on('error',()=>process.exit(1))"]

# The entry file is server.js in APP_SOURCE; a Stagefile can follow the USE line
# with its own exec-form CMD to start another file.
CMD ["node", "server.js"]
