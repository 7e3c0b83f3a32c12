/* Published test vectors of the two PRFs of masking, copied from their sources (the values by a
 * script from the files named below, not computed by this project's code). Test code only. */
#ifndef DT_TEST_MASCARA_VECTORES_H
#define DT_TEST_MASCARA_VECTORES_H

#include <stddef.h>

/* RFC 7693 appendix B: BLAKE2s-256("abc"). */
static const char vec_b2s_abc[] = "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982";
/* RFC 7693 appendix E: the hash of the self-test's 48 digests (blake2s_res in its blake2s_selftest),
 * covering digest lengths 16, 20, 28, 32, message lengths 0, 3, 64, 65, 255, 1024, keyed and unkeyed. */
static const char vec_b2s_selftest[] = "6a411f08ce25adcdfb02aba641451cec53c598b24f4fc787fbdc88797f4c1dfe";

/* SipHash-2-4 (64-bit output): the 64 vectors of the reference implementation's vectors.h
 * (github.com/veorq/SipHash, commit f26d35e964c6290ffe23d9043475ad3129f409e0, CC0 1.0): key 00 01 .. 0f,
 * message i = the bytes 00 01 .. i-1, output as the 8 bytes of the little-endian hash. */
static const char *const vec_sip64[64] = {
    "310e0edd47db6f72", "fd67dc93c539f874",
    "5a4fa9d909806c0d", "2d7efbd796666785",
    "b7877127e09427cf", "8da699cd64557618",
    "cee3fe586e46c9cb", "37d1018bf50002ab",
    "6224939a79f5f593", "b0e4a90bdf82009e",
    "f3b9dd94c5bb5d7a", "a7ad6b22462fb3f4",
    "fbe50e86bc8f1e75", "903d84c02756ea14",
    "eef27a8e90ca23f7", "e545be4961ca29a1",
    "db9bc2577fcc2a3f", "9447be2cf5e99a69",
    "9cd38d96f0b3c14b", "bd6179a71dc96dbb",
    "98eea21af25cd6be", "c7673b2eb0cbf2d0",
    "883ea3e395675393", "c8ce5ccd8c030ca8",
    "94af49f6c650adb8", "eab8858ade92e1bc",
    "f315bb5bb835d817", "adcf6b0763612e2f",
    "a5c91da7acaa4dde", "716595876650a2a6",
    "28ef495c53a387ad", "42c341d8fa92d832",
    "ce7cf2722f512771", "e37859f94623f3a7",
    "381205bb1ab0e012", "ae97a10fd434e015",
    "b4a31508beff4d31", "81396229f0907902",
    "4d0cf49ee5d4dcca", "5c73336a76d8bf9a",
    "d0a704536ba93e0e", "925958fcd6420cad",
    "a915c29bc8067318", "952b79f3bc0aa6d4",
    "f21df2e41d4535f9", "87577519048f53a9",
    "10a56cf5dfcd9adb", "eb75095ccd986cd0",
    "51a9cb9ecba312e6", "96afadfc2ce666c7",
    "72fe52975a4364ee", "5a1645b276d592a1",
    "b274cb8ebf87870a", "6f9bb4203de7b381",
    "eaecb2a30b22a87f", "9924a43cc1315724",
    "bd838d3aafbf8db7", "0b1a2a3265d51aea",
    "135079a3231ce660", "932b2846e4d70666",
    "e1915f5cb1eca46c", "f325965ca16d629f",
    "575ff28e60381be5", "724506eb4c328a95",
};

/* BLAKE2s-256 keyed with the 32 bytes 00 01 .. 1f, message the bytes 00 01 .. len-1: a subset of
 * testvectors/blake2s-kat.txt of the BLAKE2 reference repository (github.com/BLAKE2/BLAKE2, commit
 * ed1974ea83433eba7b2d95c5dcd9ac33cb847913; CC0 1.0, OpenSSL or Apache 2.0 licence), cross-checked
 * against blake2s_keyed_kat in its testvectors/blake2-kat.h when copied. */
static const struct { size_t len; const char *hash; } vec_b2s_keyed[] = {
    {0, "48a8997da407876b3d79c0d92325ad3b89cbb754d86ab71aee047ad345fd2c49"},
    {1, "40d15fee7c328830166ac3f918650f807e7e01e177258cdc0a39b11f598066f1"},
    {2, "6bb71300644cd3991b26ccd4d274acd1adeab8b1d7914546c1198bbe9fc9d803"},
    {3, "1d220dbe2ee134661fdf6d9e74b41704710556f2f6e5a091b227697445dbea6b"},
    {31, "b6156f72d380ee9ea6acd190464f2307a5c179ef01fd71f99f2d0f7a57360aea"},
    {32, "c03bc642b20959cbe133a0303e0c1abff3e31ec8e1a328ec8565c36decff5265"},
    {33, "2c3e08176f760c6264c3a2cd66fec6c3d78de43fc192457b2a4a660a1e0eb22b"},
    {63, "c65382513f07460da39833cb666c5ed82e61b9e998f4b0c4287cee56c3cc9bcd"},
    {64, "8975b0577fd35566d750b362b0897a26c399136df07bababbde6203ff2954ed4"},
    {65, "21fe0ceb0052be7fb0f004187cacd7de67fa6eb0938d927677f2398c132317a8"},
    {127, "ddbfea75cc467882eb3483ce5e2e756a4f4701b76b445519e89f22d60fa86e06"},
    {128, "0c311f38c35a4fb90d651c289d486856cd1413df9b0677f53ece2cd9e477c60a"},
    {129, "46a73a8dd3e70f59d3942c01df599def783c9da82fd83222cd662b53dce7dbdf"},
    {255, "3fb735061abc519dfe979e54c1ee5bfad0a9d858b3315bad34bde999efd724dd"},
};

/* BLAKE2s-256 without a key, same messages: blake2s_kat in testvectors/blake2-kat.h (same commit). */
static const struct { size_t len; const char *hash; } vec_b2s_unkeyed[] = {
    {0, "69217a3079908094e11121d042354a7c1f55b6482ca1a51e1b250dfd1ed0eef9"},
    {1, "e34d74dbaf4ff4c6abd871cc220451d2ea2648846c7757fbaac82fe51ad64bea"},
    {3, "e8f91c6ef232a041452ab0e149070cdd7dd1769e75b3a5921be37876c45c9900"},
    {64, "56f34e8b96557e90c1f24b52d0c89d51086acf1b00f634cf1dde9233b8eaaa3e"},
    {65, "1b53ee94aaf34e4b159d48de352c7f0661d0a40edff95a0b1639b4090e974472"},
    {255, "f03f5789d3336b80d002d59fdf918bdb775b00956ed5528e86aa994acb38fe2d"},
};

#endif
