/* SPDX-License-Identifier: BSD-3-Clause */
/* Error strings, names of instruction sets, library version. */
#include "pft/common.h"

static const char *const error_strings[PFT_E_NR_ERRORS] = {
	[PFT_OK] = "success",
	[PFT_E_INTERNAL] = "internal error (a bug in libpft)",
	[PFT_E_INVAL] = "invalid argument",
	[PFT_E_NOMEM] = "out of memory",
	[PFT_E_BAD_CONFIG] = "register values do not describe a PTM",
	[PFT_E_NOSPC] = "buffer too small",
	[PFT_E_AGAIN] = "more input needed",
	[PFT_E_EOS] = "end of stream",
	[PFT_E_BAD_PACKET] = "malformed trace packet",
	[PFT_E_BAD_FRAME] = "malformed trace frame",
	[PFT_E_NOSYNC] = "no synchronisation point found",
	[PFT_E_NOMAP] = "memory not in the program image",
	[PFT_E_IO] = "input/output error",
	[PFT_E_FORMAT] = "wrong file format",
	[PFT_E_NOTFOUND] = "not found",
	[PFT_E_UNSUPPORTED] = "not supported",
};

const char *pft_errstr(int err)
{
	if (err < 0)
		err = -err;
	if (err >= PFT_E_NR_ERRORS || !error_strings[err])
		return "unknown error";
	return error_strings[err];
}

static const char *const error_names[PFT_E_NR_ERRORS] = {
	[PFT_OK] = "ok",
	[PFT_E_INTERNAL] = "internal",
	[PFT_E_INVAL] = "inval",
	[PFT_E_NOMEM] = "nomem",
	[PFT_E_BAD_CONFIG] = "bad_config",
	[PFT_E_NOSPC] = "nospc",
	[PFT_E_AGAIN] = "again",
	[PFT_E_EOS] = "eos",
	[PFT_E_BAD_PACKET] = "bad_packet",
	[PFT_E_BAD_FRAME] = "bad_frame",
	[PFT_E_NOSYNC] = "nosync",
	[PFT_E_NOMAP] = "nomap",
	[PFT_E_IO] = "io",
	[PFT_E_FORMAT] = "format",
	[PFT_E_NOTFOUND] = "notfound",
	[PFT_E_UNSUPPORTED] = "unsupported",
};

const char *pft_error_code_name(int err)
{
	if (err < 0)
		err = -err;
	if (err >= PFT_E_NR_ERRORS || !error_names[err])
		return "?";
	return error_names[err];
}

const char *pft_version(void)
{
	return PFT_VERSION_STRING;
}

const char *pft_isa_name(enum pft_isa isa)
{
	switch (isa) {
	case PFT_ISA_ARM: return "A32";
	case PFT_ISA_THUMB: return "T32";
	case PFT_ISA_THUMBEE: return "T32EE";
	case PFT_ISA_JAZELLE: return "JAZ";
	default: return "?";
	}
}
