FROM python:3.12-slim
RUN apt-get update && apt-get install -y curl git && rm -rf /var/lib/apt/lists/*
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        ca-certificates=20230311 \
        libpq5 \
    && rm -rf /var/lib/apt/lists/*
RUN pip install requests flask==3.0.3
RUN pip install --no-cache-dir -r requirements.txt
RUN python -m pip install --upgrade pip
USER nobody
CMD ["python", "-m", "http.server"]
