/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft program image (pft_image_): the memory the traced core executed,
 * assembled from caller buffers, raw binary files (whole, or the file
 * offset / length a snapshot [dump] section gives), the loadable segments of
 * ELF files, and a read callback for everything else.
 *
 * Regions may overlap: the region added last wins for the bytes it covers.
 * The callback, if set, is asked only for bytes no region covers.
 *
 * The image is not thread-safe; the flow decoder borrows it (it must outlive
 * the decoder) and caches decoded instruction blocks, tagged with the image's
 * generation: every change to the image (adding a region, setting the
 * callback, pft_image_invalidate) makes those caches refill.
 *
 *     img = pft_image_alloc();
 *     pft_image_add_elf(img, "vmlinux", 0);            // loadable segments
 *     pft_image_add_buffer(img, 0x8000, code, len);    // borrowed, not copied
 *     dec = pft_flow_decoder_alloc(&cfg, img);  ...  pft_flow_decoder_free(dec);
 *     pft_image_free(img); */
#ifndef PFT_IMAGE_H
#define PFT_IMAGE_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pft_image;

/* An empty image.  NULL if out of memory. */
PFT_API struct pft_image *pft_image_alloc(void);

/* Frees the image and every file it loaded (buffers added with
 * pft_image_add_buffer stay the caller's). */
PFT_API void pft_image_free(struct pft_image *img);

/* Map len bytes of the caller's buffer at address addr.  The buffer is
 * borrowed: it must stay valid and unchanged while the image uses it.
 * Returns 0, -PFT_E_INVAL (NULL image or buffer, len 0, or addr + len beyond
 * 2^64), -PFT_E_NOMEM. */
PFT_API int pft_image_add_buffer(struct pft_image *img, uint64_t addr,
                                 const void *buf, size_t len);

/* Load length bytes of the file at path, starting at file offset offset, to
 * address addr.  length 0 means "to the end of the file".  The file is
 * mapped (read only, private; its pages are read when first used, so a large
 * sparse dump costs no memory), or read whole if it cannot be mapped; it
 * must not shrink while the image uses it.  Returns the number of bytes
 * mapped (> 0, capped at INT_MAX in the return value only), -PFT_E_IO
 * (cannot open or read, or not a regular file; errno says why: EISDIR for
 * a directory), -PFT_E_FORMAT (offset beyond the end of the file, or the file
 * shorter than offset + length, or empty), -PFT_E_INVAL, -PFT_E_NOMEM. */
PFT_API int pft_image_add_file(struct pft_image *img, const char *path,
                               uint64_t addr, uint64_t offset, uint64_t length);

/* Load the PT_LOAD segments of an ELF file (32- or 64-bit, either byte
 * order) at their virtual addresses plus load_offset (wrapping modulo 2^64;
 * use it to relocate a position-independent image).  Only the bytes present
 * in the file are mapped (p_filesz; the .bss tail is not code).  Returns the
 * number of segments mapped (>= 0), -PFT_E_IO, -PFT_E_FORMAT (not an ELF
 * file, or a segment beyond the end of the file), -PFT_E_INVAL,
 * -PFT_E_NOMEM. */
PFT_API int pft_image_add_elf(struct pft_image *img, const char *path,
                              uint64_t load_offset);

/* Read callback for bytes no region covers: copy up to len bytes at addr
 * into buf and return how many were copied (0 .. len; fewer than len means
 * the bytes after them are not readable), or a negative value for "not
 * readable".  The contents must not change while a decoder uses the image
 * unless pft_image_invalidate() is called.  cb NULL removes the callback.
 * Returns 0 or -PFT_E_INVAL. */
typedef int (*pft_image_read_fn)(void *arg, uint64_t addr, uint8_t *buf, size_t len);
PFT_API int pft_image_set_callback(struct pft_image *img, pft_image_read_fn cb, void *arg);

/* Read up to len bytes at addr.  Returns the number of bytes read: len, or
 * fewer when readable memory ends first; -PFT_E_NOMAP when the byte at addr
 * is not readable; -PFT_E_INVAL for NULL arguments. */
PFT_API int pft_image_read(const struct pft_image *img, uint64_t addr, void *buf, size_t len);

/* Number of regions (buffers, file parts and ELF segments) added so far. */
PFT_API size_t pft_image_region_count(const struct pft_image *img);

/* One region, in the order added: address, size and a description ("buffer",
 * the file name, or "file:segment N").  Returns 0 or -PFT_E_INVAL for an index
 * out of range.  desc may be NULL. */
PFT_API int pft_image_region(const struct pft_image *img, size_t index,
                             uint64_t *addr, uint64_t *size, const char **desc);

/* The image's generation: it changes whenever the image changes. */
PFT_API uint64_t pft_image_generation(const struct pft_image *img);

/* Build the address map now (a read builds it otherwise, on first use after
 * an add).  Between this call and the next add, reads may run on several
 * threads at once (the parallel decode's segments share one image).  0 or
 * -PFT_E_NOMEM / -PFT_E_INVAL. */
PFT_API int pft_image_prepare(struct pft_image *img);

/* Declare that memory behind the callback (or a borrowed buffer) changed:
 * decoders drop their cached blocks. */
PFT_API void pft_image_invalidate(struct pft_image *img);

/* ---- ELF files --------------------------------------------------------------
 * The one ELF reader of libpft (pft_image_add_elf and the record part use
 * it): header facts, PT_LOAD segments in program-header order and the
 * symbol table.  Segment data and symbol names point into the file, mapped
 * until pft_elf_close. */
struct pft_elf;
struct pft_elf_info {
	uint64_t entry;
	uint16_t machine;     /* e_machine (40 = ARM) */
	uint8_t is64;         /* ELFCLASS64 */
	uint8_t big_endian;   /* ELFDATA2MSB */
};
struct pft_elf_segment {
	uint64_t vaddr;
	uint64_t filesz;      /* bytes in the file (data) */
	uint64_t memsz;       /* bytes in memory (the rest is zero) */
	uint32_t flags;       /* PF_X 1, PF_W 2, PF_R 4 */
	unsigned index;       /* program header index */
	const uint8_t *data;
};
struct pft_elf_symbol {
	uint64_t addr;        /* st_value (bit 0 set for Thumb functions) */
	uint64_t size;
	const char *name;     /* "" if none */
	uint8_t type;         /* STT_*: 0 NOTYPE, 1 OBJECT, 2 FUNC ... */
};
/* 0, -PFT_E_IO (errno says why; EISDIR for a directory), -PFT_E_FORMAT
 * (not ELF, or the program headers or a segment beyond the end of the file), -PFT_E_NOMEM, -PFT_E_INVAL. */
PFT_API int pft_elf_open(struct pft_elf **out, const char *path);
PFT_API void pft_elf_close(struct pft_elf *elf);
PFT_API int pft_elf_get_info(const struct pft_elf *elf, struct pft_elf_info *out);
/* PT_LOAD segments. */
PFT_API size_t pft_elf_segment_count(const struct pft_elf *elf);
PFT_API int pft_elf_segment(const struct pft_elf *elf, size_t i, struct pft_elf_segment *out);
/* Entries of .symtab (0 if there is none). */
PFT_API size_t pft_elf_symbol_count(const struct pft_elf *elf);
PFT_API int pft_elf_symbol(const struct pft_elf *elf, size_t i, struct pft_elf_symbol *out);

#ifdef __cplusplus
}
#endif
#endif
