# typewire serve in a container.
#
# Not built by this repository's CI: no Docker engine runs on its machines, so this file is checked by eye
# only (the `swift` image's tag included). What it copies is tested: its build stage runs scripts/release.sh,
# which fails if the binary needs a library a minimal Debian lacks, and its runtime stage is the root that
# scripts/release_check.sh runs the same files in, under chroot and as a user without privileges:
# debian:bookworm-slim is Debian bookworm made with `debootstrap --variant=minbase` (the official image is
# built that way, by debuerreotype, then stripped of documentation and locales), as that root is.
#
#   docker build -t typewire .
#   docker run -p 8080:8080 -v typewire:/var/lib/typewire -e TYPEWIRE_JWT_SECRET=… typewire
#   docker run -p 8080:8080 typewire serve --demo      # to try it out
#
# The settings are TYPEWIRE_* variables or flags (docs/CONFIGURATION.md); the SQLite file lives in the volume.
FROM swift:6.2-bookworm AS build
WORKDIR /src
COPY . .
RUN bash scripts/release.sh \
    && mkdir /release \
    && tar -xzf dist/typewire-*-linux-*.tar.gz -C /release --strip-components=1

FROM debian:bookworm-slim
RUN useradd --system --create-home --home-dir /var/lib/typewire typewire
COPY --from=build /release/bin/typewire /usr/local/bin/typewire
COPY --from=build /release/share/typewire /usr/local/share/typewire
USER typewire
WORKDIR /var/lib/typewire
VOLUME /var/lib/typewire
ENV TYPEWIRE_HOST=0.0.0.0 \
    TYPEWIRE_SQLITE=/var/lib/typewire/typewire.sqlite \
    TYPEWIRE_PUBLIC=/usr/local/share/typewire/Public
EXPOSE 8080
# /healthz over bash's /dev/tcp: the image has no curl.
HEALTHCHECK --interval=10s --timeout=3s \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q ' 200 ' <&3"]
# SIGTERM closes every socket with 1001, after which clients reconnect.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/typewire"]
CMD ["serve"]
