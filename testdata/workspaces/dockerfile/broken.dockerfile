# Has exactly one problem: MAINTAINER is deprecated.
FROM debian:bookworm-slim
MAINTAINER shapes@example.com
CMD ["true"]
