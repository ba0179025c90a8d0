# robotsmith in a container, for CI systems that run build steps in images:
#   docker build -t robotsmith .
#   docker run --rm -v "$PWD:/site" robotsmith build /site
# The image holds the static binary alone; robotsmith needs no shell, C library or certificates.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=devel
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /robotsmith .

FROM scratch
COPY --from=build /robotsmith /robotsmith
# The site is mounted here; its files keep the owner robotsmith finds them with.
WORKDIR /site
ENTRYPOINT ["/robotsmith"]
CMD ["help"]
