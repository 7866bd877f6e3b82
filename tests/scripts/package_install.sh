#!/bin/sh
# Installation as a user gets it: cmake --install of this build into an empty
# prefix, then
#   - a small program outside the tree, built against the installed headers
#     and library with `pkg-config --cflags --libs libpft` only
#     (PKG_CONFIG_PATH at the prefix), probes TC2's ETB, de-formats the PTM
#     stream and decodes its packets; it must find trace ID 0x13 as PFT with
#     cycle-accurate trace and 1790 packets without an error;
#   - the same program linked statically (pkg-config --static);
#   - the installed pft runs, every command it lists has a man page and a
#     line in pft(1), and every option its --help defines is in the page.
# With PFT_TEST_DEB=1 also builds the Debian packages (dpkg-buildpackage
# -us -uc -b, about a minute and a half) from a copy of the tree and checks
# what each holds.
set -eu
: "${PFT_BUILD:?}" "${PFT_SOURCE:?}" "${PFT_DATA:?}"
command -v pkg-config >/dev/null || { echo "SKIP: pkg-config missing"; exit 77; }
PFT_CC=${PFT_TEST_CC:-cc}        # the compiler and sanitizer flags libpft was built with
PFT_CFLAGS=${PFT_TEST_CFLAGS:-}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
P="$T/prefix"
cmake --install "$PFT_BUILD" --prefix "$P" > "$T/install.log"
pc=$(find "$P" -name libpft.pc | head -1)
[ -n "$pc" ] || { echo "FAIL: no libpft.pc installed"; exit 1; }
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pc")
libdir=$(pkg-config --variable=libdir libpft)

mkdir "$T/user"
cat > "$T/user/hello_pft.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <pft/pft.h>
#include <pft/probe.h>

int main(int argc, char **argv)
{
	static struct pft_probe_report rep;
	static unsigned char cap[1 << 20], ptm[1 << 20];
	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
	size_t n = f ? fread(cap, 1, sizeof cap, f) : 0;
	const struct pft_probe_stream *s = NULL;
	struct pft_pkt_decoder *dec;
	struct pft_packet p;
	unsigned i, packets = 0, errors = 0;
	long long len;

	if (!n)
		return 2;
	rep.size = sizeof rep;
	if (pft_probe_buffer(cap, n, PFT_PROBE_LAYOUT_UNKNOWN, &rep) < 0)
		return 3;
	for (i = 0; i < rep.nstreams; i++)
		if (rep.streams[i].protocol == PFT_PROBE_PROTO_PFT)
			s = &rep.streams[i];
	if (!s)
		return 4;
	len = pft_frame_extract(PFT_FRAME_CORESIGHT, s->id, cap, n, ptm, sizeof ptm, NULL);
	dec = pft_pkt_decoder_alloc(&s->config);
	if (len <= 0 || !dec)
		return 5;
	pft_pkt_decoder_feed(dec, ptm, (size_t)len);
	pft_pkt_decoder_end(dec);
	while (pft_pkt_decoder_next(dec, &p, sizeof p) == 0) {
		packets++;
		errors += p.type == PFT_PKT_ERROR;
	}
	pft_pkt_decoder_free(dec);
	printf("libpft %s: layout %s, trace ID 0x%02x PFT, ETMCR 0x%08x, %u packets, %u errors\n",
	       pft_version(), pft_probe_layout_name(rep.layout), s->id, (unsigned)s->config.etmcr,
	       packets, errors);
	return errors != 0;
}
C
want="layout frames, trace ID 0x13 PFT, ETMCR 0x10001000, 1790 packets, 0 errors"
# shellcheck disable=SC2046
if ! (cd "$T/user" && "$PFT_CC" -std=c11 $PFT_CFLAGS -Wall -Werror hello_pft.c -o hello $(pkg-config --cflags --libs libpft)) 2> "$T/cc"; then
	echo "FAIL: the out-of-tree program does not build against the installed libpft:"; cat "$T/cc"; fail=1
elif ! out=$(LD_LIBRARY_PATH="$libdir" "$T/user/hello" "$PFT_DATA/TC2/cstrace.bin"); then
	echo "FAIL: the out-of-tree program failed: $out"; fail=1
elif ! echo "$out" | grep -q "$want"; then
	echo "FAIL: the out-of-tree program says '$out', expected '$want'"; fail=1
else
	echo "ok   shared: $out"
	LD_LIBRARY_PATH="$libdir" ldd "$T/user/hello" | grep -q "$libdir/libpft.so.0" || { echo "FAIL: not linked to the installed libpft.so.0"; fail=1; }
fi
# shellcheck disable=SC2046
if (cd "$T/user" && "$PFT_CC" -std=c11 $PFT_CFLAGS hello_pft.c -o hello_static "$libdir/libpft.a" $(pkg-config --cflags --libs --static libpft | sed 's/-lpft//')) 2> "$T/cc" &&
   out=$("$T/user/hello_static" "$PFT_DATA/TC2/cstrace.bin") && echo "$out" | grep -q "$want"; then
	echo "ok   static: $out"
else
	echo "FAIL: the static build: $(cat "$T/cc") $out"; fail=1
fi

# the installed tool and its manual
"$P/bin/pft" --version > /dev/null || { echo "FAIL: installed pft does not run"; fail=1; }
for c in $("$P/bin/pft" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
	[ -f "$P/share/man/man1/pft-$c.1" ] || [ "$c" = version ] ||
		{ echo "FAIL: no man page pft-$c.1 installed"; fail=1; }
done
[ -f "$P/share/man/man1/pft.1" ] || { echo "FAIL: no pft.1"; fail=1; }
# every command is in pft(1), and every option a command's --help defines is
# in its man page (the input options may be given by reference to pft-dump(1))
defined() { "$P/bin/pft" "$1" --help | sed -n 's/^  \(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p; /--etmccr V/s/.*/--etmcr --etmccr --etmccer --etmidr --etmtraceidr --etmsyncfr/p' | tr ' ' '\n' | sort -u; }
if command -v man >/dev/null; then
	MANWIDTH=250 man -l "$P/share/man/man1/pft.1" > "$T/pft.txt" 2>/dev/null
	for c in $("$P/bin/pft" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
		grep -q "^ *$c\b" "$T/pft.txt" || { echo "FAIL: pft(1) does not describe '$c'"; fail=1; }
		[ "$c" = version ] && continue
		MANWIDTH=250 man -l "$P/share/man/man1/pft-$c.1" > "$T/m.txt" 2>/dev/null || continue
		dumpref=$(grep -c 'pft-dump(1)' "$T/m.txt" || true)
		for o in $(defined "$c"); do
			grep -q -- "$o\b" "$T/m.txt" && continue
			[ "$dumpref" -gt 0 ] && defined dump | grep -qx -- "$o" && continue
			echo "FAIL: pft-$c(1) lacks $o (in pft $c --help)"; fail=1
		done
	done
fi
if command -v man >/dev/null; then
	for m in "$P"/share/man/man1/*.1; do
		MANWIDTH=80 man -l "$m" > /dev/null 2> "$T/man" || { echo "FAIL: man $m"; fail=1; }
		[ -s "$T/man" ] && { echo "FAIL: man $m warns: $(head -2 "$T/man")"; fail=1; }
	done
fi
echo "ok   installed: $(cd "$P" && find . -type f | sort | tr '\n' ' ')"

if [ "${PFT_TEST_DEB:-0}" = 1 ]; then
	mkdir -p "$T/deb/pft"
	(cd "$PFT_SOURCE" && git ls-files -z | xargs -0 tar -cf - ) | tar -xf - -C "$T/deb/pft"
	if (cd "$T/deb/pft" && DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -us -uc -b) > "$T/deb.log" 2>&1; then
		for p in libpft0 libpft-dev pft; do
			echo "ok   $p: $(dpkg-deb -c "$T"/deb/${p}_*.deb | awk '{print $6}' | grep -v '/$' | tr '\n' ' ')"
		done
		dpkg-deb -c "$T"/deb/libpft-dev_*.deb | grep -q 'pkgconfig/libpft.pc' || { echo "FAIL: libpft-dev lacks libpft.pc"; fail=1; }
		dpkg-deb -c "$T"/deb/pft_*.deb | grep -q 'man1/pft-probe.1' || { echo "FAIL: pft lacks pft-probe.1"; fail=1; }
		# the packages unpacked into a root: the program builds against
		# them with their pkg-config file, and the packaged pft runs
		R="$T/root"
		for p in libpft0 libpft-dev pft; do dpkg-deb -x "$T"/deb/${p}_*.deb "$R"; done
		debpc=$(dirname "$(find "$R" -name libpft.pc | head -1)")
		debflags=$(PKG_CONFIG_PATH="$debpc" PKG_CONFIG_SYSROOT_DIR="$R" pkg-config --cflags --libs libpft)
		deblib=$(dirname "$debpc") # .../usr/lib/<triplet>
		# shellcheck disable=SC2086
		if (cd "$T/user" && "$PFT_CC" -std=c11 $PFT_CFLAGS -Wall -Werror hello_pft.c -o hello_deb $debflags) 2> "$T/cc" &&
		   out=$(LD_LIBRARY_PATH="$deblib" "$T/user/hello_deb" "$PFT_DATA/TC2/cstrace.bin") &&
		   echo "$out" | grep -q "$want"; then
			echo "ok   built against the unpacked libpft-dev ($debflags): $out"
		else
			echo "FAIL: build against the packages: $(cat "$T/cc") $out"; fail=1
		fi
		LD_LIBRARY_PATH="$deblib" "$R/usr/bin/pft" probe "$PFT_DATA/TC2/cstrace.bin" > /dev/null ||
			{ echo "FAIL: the packaged pft probe"; fail=1; }
	else
		echo "FAIL: dpkg-buildpackage"; tail -20 "$T/deb.log"; fail=1
	fi
fi
[ $fail = 0 ] && echo "package_install: all ok"
exit $fail
