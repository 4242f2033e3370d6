# Not formatted: the formatter indents the continuation line.
FROM debian:bookworm-slim
RUN apt-get update && \
apt-get install -y ca-certificates
