// Node-API addon: a thin wrapper over libdatoteca. Converts, calls, throws; never draws.
#include <napi.h>

#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "datoteca.h"
}

namespace {

// What each environment (the main thread, each worker) keeps: the Gen class, for derive(), and the
// function index.js registers that builds the error of a status (the classes generated from spec/).
struct Datos {
  Napi::FunctionReference gen;
  Napi::FunctionReference error;
};

// Throw the error of a status with its sentence: the library's own when it wrote one.
void Fail(Napi::Env env, dt_status st, const std::string &sentence) {
  Datos *d = env.GetInstanceData<Datos>();
  if (d->error.IsEmpty()) {
    Napi::Error::New(env, sentence).ThrowAsJavaScriptException();
    return;
  }
  Napi::Value e = d->error.Call({Napi::Number::New(env, st), Napi::String::New(env, sentence)});
  if (!env.IsExceptionPending()) Napi::Error(env, e).ThrowAsJavaScriptException();
}

// A status the library gave no sentence for: "what: <its text>".
void FailStatus(Napi::Env env, dt_status st, const char *what) { Fail(env, st, std::string(what) + ": " + dt_status_str(st)); }

// A refused call: the sentence the library wrote into the value's buffer for a bad argument.
void CallFail(Napi::Env env, dt_status st, size_t index, const char *buf) {
  if (st == DT_ERR_INVALID_ARG) return Fail(env, st, buf);
  FailStatus(env, st, dt_call_at(index) ? dt_call_at(index)->name : "call");
}

// Make a JS string from UTF-8 text. The data is Latin-1 (Spanish letters all lie below
// U+0100), so it is transcoded in place and handed to V8 as a one-byte string, which V8
// creates, splits and stores faster than a two-byte one; anything else goes as UTF-8.
Napi::Value MakeString(Napi::Env env, char *s, size_t n) {
  // One pass, in place: the Latin-1 text is never longer than its UTF-8, so writing at j <= i
  // is safe. On the first character outside Latin-1 the original is rebuilt from the part not
  // yet read and the already-read part re-encoded, which is rare enough to be simple instead.
  // Most of the text is ASCII: runs of it are skipped (before the first other byte) or moved
  // (after it) eight bytes at a time; the word is loaded before it is stored, so overlap is safe.
  const uint64_t alto = 0x8080808080808080ULL;
  size_t i = 0;
  for (uint64_t w; i + 8 <= n && (memcpy(&w, s + i, 8), (w & alto) == 0);) i += 8;
  size_t j = i;
  for (; i < n; i++) {
    uint64_t w;
    while (i + 8 <= n && (memcpy(&w, s + i, 8), (w & alto) == 0)) {
      memcpy(s + j, &w, 8);
      i += 8;
      j += 8;
    }
    if (i >= n) break;
    unsigned char c = (unsigned char)s[i];
    if (c < 0x80) {
      s[j++] = (char)c;
    } else if ((c == 0xC2 || c == 0xC3) && i + 1 < n && ((unsigned char)s[i + 1] & 0xC0) == 0x80) {
      s[j++] = (char)(((c & 0x03) << 6) | ((unsigned char)s[i + 1] & 0x3F));
      i++;
    } else {
      // Not Latin-1: rebuild UTF-8 = re-encode s[0..j) (Latin-1) + the untouched s[i..n).
      std::string utf8;
      utf8.reserve(2 * j + (n - i));
      for (size_t k = 0; k < j; k++) {
        unsigned char b = (unsigned char)s[k];
        if (b < 0x80) {
          utf8.push_back((char)b);
        } else {
          utf8.push_back((char)(0xC0 | (b >> 6)));
          utf8.push_back((char)(0x80 | (b & 0x3F)));
        }
      }
      utf8.append(s + i, n - i);
      return Napi::String::New(env, utf8.data(), utf8.size());
    }
  }
  napi_value out;
  napi_create_string_latin1(env, s, j, &out);
  return Napi::Value(env, out);
}

// Arguments arrive as integers or null (absent: DT_ARG_DEFAULT, so the library's default applies);
// index.js has checked their types, the library checks their values.
std::vector<int64_t> Args(const Napi::Value &v) {
  std::vector<int64_t> out;
  if (v.IsArray()) {
    Napi::Array a = v.As<Napi::Array>();
    for (uint32_t i = 0; i < a.Length(); i++) {
      Napi::Value x = a.Get(i);
      out.push_back(x.IsNumber() ? x.As<Napi::Number>().Int64Value() : DT_ARG_DEFAULT);
    }
  }
  return out;
}

// A buffer with room for n values of any call, reused across calls (per thread: each worker has its
// own), so bulk calls allocate nothing per call.
std::vector<char> &Scratch(size_t n) {
  static thread_local std::vector<char> out;
  if (out.size() < DT_CALL_MANY_BOUND(n)) out.resize(DT_CALL_MANY_BOUND(n));
  return out;
}

// Values of `n` rows of `nc` fields (fields joined by DT_FIELD_SEP, rows ended by '\n') regrouped as
// one string per column, its values joined by '\n': JavaScript splits each once (no object per row).
Napi::Value Columnar(Napi::Env env, const char *buf, size_t len, size_t nc) {
  std::vector<std::string> cols(nc);
  for (auto &c : cols) c.reserve(len / (nc ? nc : 1) + 16);
  size_t j = 0, start = 0;
  bool primera = true;
  for (size_t i = 0; i < len; i++) {
    char ch = buf[i];
    if (ch != DT_FIELD_SEP && ch != '\n') continue;
    if (j < nc) {
      if (!primera) cols[j].push_back('\n');
      cols[j].append(buf + start, i - start);
    }
    start = i + 1;
    if (ch == '\n') {
      j = 0;
      primera = false;
    } else {
      j++;
    }
  }
  Napi::Array out = Napi::Array::New(env, nc);
  for (size_t k = 0; k < nc; k++) out.Set(static_cast<uint32_t>(k), MakeString(env, cols[k].data(), cols[k].size()));
  return out;
}

class Gen : public Napi::ObjectWrap<Gen> {
 public:


  static Napi::Function Init(Napi::Env env) {
    return DefineClass(env, "Gen", {
      InstanceMethod("call", &Gen::Call),
      InstanceMethod("many", &Gen::Many),
      InstanceMethod("nextU32", &Gen::NextU32),
      InstanceMethod("range", &Gen::Range),
      InstanceMethod("saveState", &Gen::SaveState),
      InstanceMethod("restoreState", &Gen::RestoreState),
      InstanceMethod("derive", &Gen::Derive),
      InstanceMethod("setHoy", &Gen::SetHoy),
      InstanceMethod("getHoy", &Gen::GetHoy),
      InstanceMethod("free", &Gen::Free),
    });
  }

  // new Gen(seed: bigint | string)
  Gen(const Napi::CallbackInfo &info) : Napi::ObjectWrap<Gen>(info) {
    Napi::Env env = info.Env();
    dt_status st;
    if (info.Length() > 0 && info[0].IsExternal()) {  // from derive()
      g_ = info[0].As<Napi::External<dt_gen>>().Data();
      return;
    }
    if (info.Length() > 0 && info[0].IsString()) {
      std::string s = info[0].As<Napi::String>().Utf8Value();
      st = dt_new_str(s.data(), s.size(), &g_);
    } else if (info.Length() > 0 && info[0].IsBigInt()) {
      bool lossless = false;  // index.js keeps a seed in [0, 2**64): always true
      st = dt_new(info[0].As<Napi::BigInt>().Uint64Value(&lossless), &g_);
    } else {
      Napi::TypeError::New(env, "Gen: seed must be a bigint or a string").ThrowAsJavaScriptException();
      return;
    }
    if (st != DT_OK) FailStatus(env, st, "Datoteca");
  }

  ~Gen() { dt_free(g_); }

 private:
  dt_gen *g_ = nullptr;  // the instance owns only this: text goes through a stack buffer

  bool Alive(Napi::Env env) {
    if (g_ == nullptr) {
      Fail(env, DT_ERR_NULL, "datoteca: this Datoteca was freed");
      return false;
    }
    return true;
  }

  // call(index, args?) -> string
  Napi::Value Call(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    if (!Alive(env)) return env.Undefined();
    size_t index = info[0].As<Napi::Number>().Uint32Value();
    std::vector<int64_t> a = Args(info[1]);
    char buf[DT_MAX_TEXT];
    size_t len = 0;
    dt_status st = dt_call(g_, index, a.empty() ? nullptr : a.data(), a.size(), buf, sizeof buf, &len);
    if (st != DT_OK) {
      CallFail(env, st, index, buf);
      return env.Undefined();
    }
    return MakeString(env, buf, len);
  }

  // many(index, args, n, modo) -> modo 0: one string, each value followed by '\n' (split in JS: one
  // crossing); modo 2: one string per field (see Columnar).
  Napi::Value Many(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    if (!Alive(env)) return env.Undefined();
    size_t index = info[0].As<Napi::Number>().Uint32Value();
    std::vector<int64_t> a = Args(info[1]);
    size_t n = info[2].As<Napi::Number>().Uint32Value();
    int modo = info.Length() > 3 ? info[3].As<Napi::Number>().Int32Value() : 0;
    std::vector<char> &out = Scratch(n);
    size_t len = 0;
    dt_status st = dt_call_many(g_, index, a.empty() ? nullptr : a.data(), a.size(), n, out.data(), out.size(), &len);
    if (st != DT_OK) {
      CallFail(env, st, index, out.data());
      return env.Undefined();
    }
    if (modo == 2) {
      const dt_call_info *c = dt_call_at(index);
      return Columnar(env, out.data(), len, c->kind == DT_KIND_RECORD ? c->nfields : 1);
    }
    return MakeString(env, out.data(), len);
  }

  Napi::Value NextU32(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    if (!Alive(env)) return env.Undefined();
    uint32_t v = 0;
    dt_status st = dt_next_u32(g_, &v);
    if (st != DT_OK) {
      FailStatus(env, st, "nextU32");
      return env.Undefined();
    }
    return Napi::Number::New(env, v);
  }

  // range(lo: bigint, hi: bigint) -> bigint
  Napi::Value Range(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    if (!Alive(env)) return env.Undefined();
    bool lossless = false;  // index.js keeps both in int64: always true
    int64_t lo = info[0].As<Napi::BigInt>().Int64Value(&lossless);
    int64_t hi = info[1].As<Napi::BigInt>().Int64Value(&lossless);
    int64_t v = 0;
    dt_status st = dt_range(g_, lo, hi, &v);
    if (st != DT_OK) {
      FailStatus(env, st, "range");
      return env.Undefined();
    }
    return Napi::BigInt::New(env, v);
  }

  Napi::Value SaveState(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    if (!Alive(env)) return env.Undefined();
    auto b = Napi::Buffer<uint8_t>::New(env, DT_STATE_SIZE);
    dt_status st = dt_state_save(g_, b.Data(), b.Length(), nullptr);
    if (st != DT_OK) {
      FailStatus(env, st, "saveState");
      return env.Undefined();
    }
    return b;
  }

  Napi::Value RestoreState(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    if (!Alive(env)) return env.Undefined();
    auto b = info[0].As<Napi::Uint8Array>();
    dt_status st = dt_state_restore(g_, b.Data(), b.ByteLength());
    if (st != DT_OK) FailStatus(env, st, "state");
    return env.Undefined();
  }

  Napi::Value Derive(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    if (!Alive(env)) return env.Undefined();
    std::string label = info[0].As<Napi::String>().Utf8Value();
    dt_gen *child = nullptr;
    dt_status st = dt_derive(g_, label.data(), label.size(), &child);
    if (st != DT_OK) {
      FailStatus(env, st, "derive");
      return env.Undefined();
    }
    return env.GetInstanceData<Datos>()->gen.New({Napi::External<dt_gen>::New(env, child)});
  }

  // Free the C instance now; the destructor then has nothing to do. Twice is a no-op.
  Napi::Value Free(const Napi::CallbackInfo &info) {
    dt_free(g_);
    g_ = nullptr;
    return info.Env().Undefined();
  }

  Napi::Value SetHoy(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    if (!Alive(env)) return env.Undefined();
    dt_status st = dt_set_hoy(g_, info[0].As<Napi::Number>().Int32Value(), info[1].As<Napi::Number>().Int32Value(),
                              info[2].As<Napi::Number>().Int32Value());
    return Napi::Boolean::New(env, st == DT_OK);
  }

  Napi::Value GetHoy(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    if (!Alive(env)) return env.Undefined();
    int32_t y = 0, m = 0, d = 0;
    dt_status st = dt_get_hoy(g_, &y, &m, &d);
    if (st != DT_OK) {
      FailStatus(env, st, "hoy");
      return env.Undefined();
    }
    auto a = Napi::Array::New(env, 3);
    a.Set(0u, y);
    a.Set(1u, m);
    a.Set(2u, d);
    return a;
  }
};



// A copy of `bytes` bytes in an ArrayBuffer V8 owns. Arrow buffers are copied rather than lent as
// external buffers: V8 does not count external memory towards collecting, so a loop of batches grew to
// gigabytes (5.5 GB for 300 batches of 65,536 persona rows) where copies stay near 200 MB, and the copy
// (one memcpy of warm memory) was not slower.
Napi::ArrayBuffer Copia(Napi::Env env, const void *p, size_t bytes) {
  Napi::ArrayBuffer ab = Napi::ArrayBuffer::New(env, bytes);
  if (bytes > 0) memcpy(ab.Data(), p, bytes);
  return ab;
}

// A dataset (docs/datasets.md): new Tabla(index, args, seed, hoy|null, campos|null, unico|null, nulos|null,
// sucio|null).
// index.js has checked the types; the library checks the values and says why it refuses.
class Tabla : public Napi::ObjectWrap<Tabla> {
 public:
  static Napi::Function Init(Napi::Env env) {
    return DefineClass(env, "Tabla", {
      InstanceMethod("columnas", &Tabla::Columnas),
      InstanceMethod("capacidad", &Tabla::Capacidad),
      InstanceMethod("filas", &Tabla::Filas),
      InstanceMethod("ddl", &Tabla::Ddl),
      InstanceMethod("arrow", &Tabla::Arrow),
    });
  }

  Tabla(const Napi::CallbackInfo &info) : Napi::ObjectWrap<Tabla>(info) {
    Napi::Env env = info.Env();
    std::vector<int64_t> a = Args(info[1]);
    dt_tabla_opciones o = {};
    o.tamano = sizeof o;
    o.llamada = info[0].As<Napi::Number>().Uint32Value();
    o.args = a.empty() ? nullptr : a.data();
    o.nargs = a.size();
    std::string seed_texto, campos, unico, nulos, sucio;
    if (info[2].IsString()) {
      seed_texto = info[2].As<Napi::String>().Utf8Value();
      o.seed_texto = seed_texto.data();
      o.seed_texto_len = seed_texto.size();
    } else {
      bool lossless = false;  // index.js keeps a seed in [0, 2**64): always true
      o.seed = info[2].As<Napi::BigInt>().Uint64Value(&lossless);
    }
    if (info[3].IsArray()) {
      Napi::Array h = info[3].As<Napi::Array>();
      o.hoy_anio = h.Get(0u).As<Napi::Number>().Int32Value();
      o.hoy_mes = h.Get(1u).As<Napi::Number>().Int32Value();
      o.hoy_dia = h.Get(2u).As<Napi::Number>().Int32Value();
    }
    if (info[4].IsString()) o.campos = (campos = info[4].As<Napi::String>().Utf8Value()).c_str();
    if (info[5].IsString()) o.unico = (unico = info[5].As<Napi::String>().Utf8Value()).c_str();
    if (info[6].IsString()) o.nulos = (nulos = info[6].As<Napi::String>().Utf8Value()).c_str();
    if (info[7].IsString()) o.sucio = (sucio = info[7].As<Napi::String>().Utf8Value()).c_str();
    char why[DT_SENTENCE_MAX] = "";
    dt_status st = dt_tabla_new(&o, &t_, why, sizeof why);
    if (st != DT_OK) Fail(env, st, why[0] ? std::string(why) : std::string("Tabla: ") + dt_status_str(st));
  }

  ~Tabla() { dt_tabla_free(t_); }

 private:
  dt_tabla *t_ = nullptr;

  Napi::Value Columnas(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    size_t n = dt_tabla_columnas(t_);
    Napi::Array out = Napi::Array::New(env, n);
    for (size_t j = 0; j < n; j++) {
      dt_columna_info c;
      dt_tabla_columna(t_, j, &c);
      Napi::Object o = Napi::Object::New(env);
      o.Set("nombre", c.nombre);
      o.Set("tipoSql", c.tipo_sql);
      o.Set("nulable", Napi::Boolean::New(env, c.nulable != 0));
      o.Set("unico", Napi::Boolean::New(env, c.unico != 0));
      o.Set("nulosPorMil", Napi::Number::New(env, c.nulos_por_mil));
      out.Set(static_cast<uint32_t>(j), o);
    }
    return out;
  }

  Napi::Value Capacidad(const Napi::CallbackInfo &info) {
    return Napi::Number::New(info.Env(), static_cast<double>(dt_tabla_capacidad(t_)));
  }

  // filas(desde, n, columnas) -> one string: fields joined by DT_FIELD_SEP, a null as DT_NULO, rows by
  // '\n'; with columnas, one string per column (see Columnar).
  Napi::Value Filas(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    uint64_t desde = static_cast<uint64_t>(info[0].As<Napi::Number>().Int64Value());
    size_t n = info[1].As<Napi::Number>().Uint32Value();
    bool columnas = info.Length() > 2 && info[2].ToBoolean().Value();
    std::vector<char> &out = Scratch(n);
    size_t len = 0;
    dt_status st = dt_tabla_filas(t_, desde, n, out.data(), out.size(), &len);
    if (st != DT_OK) {
      FailStatus(env, st, "tabla rows");
      return env.Undefined();
    }
    return columnas ? Columnar(env, out.data(), len, dt_tabla_columnas(t_)) : MakeString(env, out.data(), len);
  }

  // arrow(desde, n, hilos) -> per column { nulos, validez: Uint8Array | null, and offsets: Int32Array +
  // datos: Uint8Array (utf8), valores: BigInt64Array (int64) or Int32Array (date32) }: the buffers of
  // one Arrow record batch filled in C (dt_tabla_arrow_lote), copied once (see Copia); the batch is released
  // before returning.
  Napi::Value Arrow(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    uint64_t desde = static_cast<uint64_t>(info[0].As<Napi::Number>().Int64Value());
    size_t n = info[1].As<Napi::Number>().Uint32Value();
    int hilos = info[2].As<Napi::Number>().Int32Value();
    struct ArrowArray lote;
    dt_status st = dt_tabla_arrow_lote(t_, desde, n, hilos, &lote);
    if (st != DT_OK) {
      FailStatus(env, st, "tabla arrow");
      return env.Undefined();
    }
    Napi::Array out = Napi::Array::New(env, static_cast<size_t>(lote.n_children));
    for (int64_t j = 0; j < lote.n_children; j++) {
      const struct ArrowArray *c = lote.children[j];
      Napi::Object o = Napi::Object::New(env);
      o.Set("nulos", Napi::Number::New(env, static_cast<double>(c->null_count)));
      if (c->buffers[0] != nullptr) {
        o.Set("validez", Napi::Uint8Array::New(env, (n + 7) / 8, Copia(env, c->buffers[0], (n + 7) / 8), 0));
      } else {
        o.Set("validez", env.Null());
      }
      if (c->n_buffers == 3) {
        size_t bytes = static_cast<size_t>(static_cast<const int32_t *>(c->buffers[1])[n]);
        o.Set("offsets", Napi::Int32Array::New(env, n + 1, Copia(env, c->buffers[1], (n + 1) * 4), 0));
        o.Set("datos", Napi::Uint8Array::New(env, bytes, Copia(env, c->buffers[2], bytes), 0));
        out.Set(static_cast<uint32_t>(j), o);
        continue;
      }
      dt_columna_info ci;  // date32 or int64: the schema's type, as dt_tabla_arrow_schema gives it
      dt_tabla_columna(t_, static_cast<size_t>(j), &ci);
      if (strcmp(ci.tipo_sql, "date") == 0) {
        o.Set("valores", Napi::Int32Array::New(env, n, Copia(env, c->buffers[1], n * 4), 0));
      } else {
        o.Set("valores", Napi::BigInt64Array::New(env, n, Copia(env, c->buffers[1], n * 8), 0));
      }
      out.Set(static_cast<uint32_t>(j), o);
    }
    lote.release(&lote);
    return out;
  }

  Napi::Value Ddl(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    int dialecto = info[0].As<Napi::Number>().Int32Value();
    std::string nombre = info[1].As<Napi::String>().Utf8Value();
    char buf[8192];
    dt_status st = dt_tabla_ddl(t_, static_cast<dt_dialecto>(dialecto), nombre.c_str(), buf, sizeof buf, nullptr);
    if (st != DT_OK) {
      if (st == DT_ERR_INVALID_ARG) return Fail(env, st, buf), env.Undefined();
      FailStatus(env, st, "ddl");
      return env.Undefined();
    }
    return Napi::String::New(env, buf);
  }
};

// A schema (docs/esquemas.md): new Esquema(texto, formato, archivo, seed: bigint, hoy | null). index.js
// has read the file and checked the types; the library parses and checks the document and says why it
// refuses. The schema is immutable in C; free() drops it before the collector does (later calls throw).
class Esquema : public Napi::ObjectWrap<Esquema> {
 public:
  static Napi::Function Init(Napi::Env env) {
    return DefineClass(env, "Esquema", {
      InstanceMethod("tablas", &Esquema::Tablas),
      InstanceMethod("orden", &Esquema::Orden),
      InstanceMethod("columnas", &Esquema::Columnas),
      InstanceMethod("total", &Esquema::Total),
      InstanceMethod("filas", &Esquema::Filas),
      InstanceMethod("ddl", &Esquema::Ddl),
      InstanceMethod("free", &Esquema::Free),
    });
  }

  Esquema(const Napi::CallbackInfo &info) : Napi::ObjectWrap<Esquema>(info) {
    Napi::Env env = info.Env();
    std::string texto = info[0].As<Napi::String>().Utf8Value();
    int formato = info[1].As<Napi::Number>().Int32Value();
    std::string archivo = info[2].As<Napi::String>().Utf8Value();
    bool lossless = false;  // index.js keeps a seed in [0, 2**64): always true
    uint64_t seed = info[3].As<Napi::BigInt>().Uint64Value(&lossless);
    int32_t hoy[3] = {0, 0, 0};
    if (info[4].IsArray()) {
      Napi::Array h = info[4].As<Napi::Array>();
      for (uint32_t k = 0; k < 3; k++) hoy[k] = h.Get(k).As<Napi::Number>().Int32Value();
    }
    char why[DT_SENTENCE_MAX] = "";
    dt_status st = dt_esquema_new(texto.data(), texto.size(), formato, archivo.c_str(), seed, hoy[0], hoy[1], hoy[2], &e_, why,
                                  sizeof why);
    if (st != DT_OK) Fail(env, st, why[0] ? std::string(why) : std::string("Esquema: ") + dt_status_str(st));
  }

  ~Esquema() { dt_esquema_free(e_); }

 private:
  dt_esquema *e_ = nullptr;

  bool Alive(Napi::Env env) {
    if (e_ == nullptr) {
      Fail(env, DT_ERR_NULL, "datoteca: this Esquema was freed");
      return false;
    }
    return true;
  }

  // A table index from JS, which index.js has looked up by name among tablas().
  size_t Indice(const Napi::CallbackInfo &info) { return info[0].As<Napi::Number>().Uint32Value(); }

  Napi::Value Tablas(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    if (!Alive(env)) return env.Undefined();
    size_t n = dt_esquema_tablas(e_);
    Napi::Array out = Napi::Array::New(env, n);
    for (size_t i = 0; i < n; i++) out.Set(static_cast<uint32_t>(i), dt_esquema_tabla(e_, i));
    return out;
  }

  // orden() -> table indexes in dependency order
  Napi::Value Orden(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    if (!Alive(env)) return env.Undefined();
    size_t n = dt_esquema_tablas(e_);
    Napi::Array out = Napi::Array::New(env, n);
    for (size_t k = 0; k < n; k++) out.Set(static_cast<uint32_t>(k), Napi::Number::New(env, static_cast<double>(dt_esquema_orden(e_, k))));
    return out;
  }

  Napi::Value Columnas(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    if (!Alive(env)) return env.Undefined();
    size_t t = Indice(info), n = dt_esquema_columnas(e_, t);
    Napi::Array out = Napi::Array::New(env, n);
    for (size_t j = 0; j < n; j++) {
      dt_esquema_columna_info c;
      dt_status st = dt_esquema_columna(e_, t, j, &c);
      if (st != DT_OK) {
        FailStatus(env, st, "columnas");
        return env.Undefined();
      }
      Napi::Object o = Napi::Object::New(env);
      o.Set("nombre", c.nombre);
      o.Set("tipoSql", c.tipo_sql);
      o.Set("nulable", Napi::Boolean::New(env, c.nulable != 0));
      o.Set("unico", Napi::Boolean::New(env, c.unico != 0));
      o.Set("clavePrimaria", Napi::Boolean::New(env, c.clave_primaria != 0));
      if (c.ref_tabla != nullptr) {
        o.Set("ref", std::string(c.ref_tabla) + "." + c.ref_columna);
      } else {
        o.Set("ref", env.Null());
      }
      out.Set(static_cast<uint32_t>(j), o);
    }
    return out;
  }

  // total(t) -> bigint: a table's rows (up to 2^62)
  Napi::Value Total(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    if (!Alive(env)) return env.Undefined();
    return Napi::BigInt::New(env, dt_esquema_tabla_filas(e_, Indice(info)));
  }

  // filas(t, desde, n, nombre) -> rows [desde, desde + n) as dt_esquema_filas writes them (fields joined
  // by DT_FIELD_SEP, a null as DT_NULO, each row followed by '\n'), sized by the library's size query.
  Napi::Value Filas(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    if (!Alive(env)) return env.Undefined();
    size_t t = Indice(info);
    uint64_t desde = static_cast<uint64_t>(info[1].As<Napi::Number>().Int64Value());
    size_t n = info[2].As<Napi::Number>().Uint32Value();
    std::string que = info[3].As<Napi::String>().Utf8Value() + " rows";
    size_t cap = 0, len = 0;
    dt_status st = dt_esquema_filas(e_, t, desde, n, nullptr, 0, &cap);
    if (st != DT_OK && st != DT_ERR_BUFFER_TOO_SMALL) {
      FailStatus(env, st, que.c_str());
      return env.Undefined();
    }
    static thread_local std::vector<char> out;
    if (out.size() < cap) out.resize(cap);
    st = dt_esquema_filas(e_, t, desde, n, out.data(), out.size(), &len);
    if (st == DT_ERR_INVALID_ARG && out[0] != '\0') { // a row its arguments from other columns cannot make
      Fail(env, st, std::string(out.data()));
      return env.Undefined();
    }
    if (st != DT_OK) {
      FailStatus(env, st, que.c_str());
      return env.Undefined();
    }
    return MakeString(env, out.data(), len);
  }

  Napi::Value Ddl(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    if (!Alive(env)) return env.Undefined();
    dt_dialecto d = static_cast<dt_dialecto>(info[0].As<Napi::Number>().Int32Value());
    size_t len = 0;
    dt_esquema_ddl(e_, d, nullptr, 0, &len);  // the size query
    std::vector<char> buf(len + 1);
    dt_status st = dt_esquema_ddl(e_, d, buf.data(), buf.size(), &len);
    if (st != DT_OK) {
      if (st == DT_ERR_INVALID_ARG) return Fail(env, st, buf.data()), env.Undefined();
      FailStatus(env, st, "ddl");
      return env.Undefined();
    }
    return Napi::String::New(env, buf.data(), len);
  }

  // Free the C schema now; the destructor then has nothing to do. Twice is a no-op.
  Napi::Value Free(const Napi::CallbackInfo &info) {
    dt_esquema_free(e_);
    e_ = nullptr;
    return info.Env().Undefined();
  }
};

// Masking (docs/enmascarar.md): the rules and the key, built once; every call binds its own plan to the
// header it is given, so the rules decide everything in C and the key never leaves the C key object.
class Enmascarador : public Napi::ObjectWrap<Enmascarador> {
 public:
  static Napi::Function Init(Napi::Env env) {
    return DefineClass(env, "Enmascarador", {
      InstanceMethod("columnas", &Enmascarador::Columnas),
      InstanceMethod("filas", &Enmascarador::Filas),
      InstanceMethod("arrow", &Enmascarador::Arrow),
      InstanceMethod("free", &Enmascarador::Free),
    });
  }

  // new Enmascarador(reglas text, formato, archivo, key, options): the key is its text as a Buffer
  // (index.js wipes it) or, as a string, the path of a key file, which only the library opens and reads
  // (dt_mascara_clave_leer: the CLI's checks and sentences, never the path in one). options: the
  // DT_MASCARA_CLAVE_* bits.
  Enmascarador(const Napi::CallbackInfo &info) : Napi::ObjectWrap<Enmascarador>(info) {
    Napi::Env env = info.Env();
    std::string texto = info[0].As<Napi::String>().Utf8Value();
    int formato = info[1].As<Napi::Number>().Int32Value();
    std::string archivo = info[2].As<Napi::String>().Utf8Value();
    unsigned opciones = info[4].As<Napi::Number>().Uint32Value();
    char why[DT_SENTENCE_MAX] = "";
    dt_status st = dt_mascara_reglas_new(texto.data(), texto.size(), formato, archivo.c_str(), &r_, why, sizeof why);
    if (st != DT_OK) {
      Fail(env, st, why[0] ? std::string(why) : std::string("reglas: ") + dt_status_str(st));
      return;
    }
    if (info[3].IsString()) {
      std::string ruta = info[3].As<Napi::String>().Utf8Value();
      st = dt_mascara_clave_leer(ruta.c_str(), opciones, &k_, why, sizeof why);
    } else {
      Napi::Buffer<char> clave = info[3].As<Napi::Buffer<char>>();
      st = dt_mascara_clave_new_opciones(clave.Data(), clave.Length(), opciones, &k_, why, sizeof why);
    }
    if (st != DT_OK) Fail(env, st, why[0] ? std::string(why) : std::string("clave: ") + dt_status_str(st));
  }

  ~Enmascarador() {
    dt_mascara_clave_free(k_);
    dt_mascara_reglas_free(r_);
  }

 private:
  dt_mascara_reglas *r_ = nullptr;
  dt_mascara_clave *k_ = nullptr;

  // A plan bound to the header (an array of strings), or nullptr with the refusal thrown.
  dt_mascara_plan *Plan(Napi::Env env, Napi::Array header, std::vector<std::string> &nombres) {
    if (r_ == nullptr || k_ == nullptr) {
      Fail(env, DT_ERR_NULL, "datoteca: this Enmascarador was freed");
      return nullptr;
    }
    size_t n = header.Length();
    std::vector<const char *> cols(n + 1);
    std::vector<size_t> largos(n + 1);
    nombres.resize(n);
    for (size_t j = 0; j < n; j++) {
      nombres[j] = header.Get(static_cast<uint32_t>(j)).As<Napi::String>().Utf8Value();
      cols[j] = nombres[j].data();
      largos[j] = nombres[j].size();
    }
    dt_mascara_plan *p = nullptr;
    char why[DT_SENTENCE_MAX] = "";
    dt_status st = dt_mascara_plan_new(r_, k_, n, cols.data(), largos.data(), &p, why, sizeof why);
    if (st != DT_OK) {
      Fail(env, st, why[0] ? std::string(why) : std::string("plan: ") + dt_status_str(st));
      return nullptr;
    }
    return p;
  }

  static Napi::Array Salida(Napi::Env env, const dt_mascara_plan *p) {
    size_t m = dt_mascara_plan_ncolumnas(p);
    Napi::Array out = Napi::Array::New(env, m);
    for (size_t i = 0; i < m; i++) {
      size_t len = 0;
      const char *s = dt_mascara_plan_columna(p, i, &len);
      out.Set(static_cast<uint32_t>(i), Napi::String::New(env, s, len));
    }
    return out;
  }

  // columnas(header) -> the output's column names (borrar drops), or the rules' refusal of the header
  Napi::Value Columnas(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    std::vector<std::string> nombres;
    dt_mascara_plan *p = Plan(env, info[0].As<Napi::Array>(), nombres);
    if (p == nullptr) return env.Undefined();
    Napi::Array out = Salida(env, p);
    dt_mascara_plan_free(p);
    return out;
  }

  // filas(header, rows, primera) -> [output names, masked rows]: each row an array of the header's
  // values (string, or null for a null, which goes in as ""), each masked row an array of the output's
  // values, null where the input was null or a non-empty value was emptied by its rule (as Arrow's).
  Napi::Value Filas(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    std::vector<std::string> nombres;
    dt_mascara_plan *p = Plan(env, info[0].As<Napi::Array>(), nombres);
    if (p == nullptr) return env.Undefined();
    Napi::Array filas = info[1].As<Napi::Array>();
    uint64_t primera = static_cast<uint64_t>(info[2].As<Napi::Number>().Int64Value());
    size_t n = nombres.size(), m = dt_mascara_plan_ncolumnas(p);
    std::vector<size_t> de(m);
    for (size_t i = 0, j = 0; i < m; i++) {  // output i is the header's column de[i] (names are unique)
      size_t len = 0;
      const char *s = dt_mascara_plan_columna(p, i, &len);
      while (j < n && !(nombres[j].size() == len && std::memcmp(nombres[j].data(), s, len) == 0)) j++;
      de[i] = j++;
    }
    std::vector<std::string> valores(n);
    std::vector<const char *> vals(n + 1);
    std::vector<size_t> lens(n + 1);
    std::vector<char> nulo(n + 1);
    Napi::Array out = Napi::Array::New(env, filas.Length());
    char why[DT_SENTENCE_MAX] = "";
    for (uint32_t r = 0; r < filas.Length(); r++) {
      Napi::Array fila = filas.Get(r).As<Napi::Array>();
      for (size_t j = 0; j < n; j++) {
        Napi::Value v = fila.Get(static_cast<uint32_t>(j));
        nulo[j] = v.IsNull();
        valores[j] = nulo[j] ? std::string() : v.As<Napi::String>().Utf8Value();
        vals[j] = valores[j].data();
        lens[j] = valores[j].size();
      }
      dt_status st = dt_mascara_plan_fila(p, primera + r, n, vals.data(), lens.data(), why, sizeof why);
      if (st != DT_OK) {
        dt_mascara_plan_free(p);
        Fail(env, st, why[0] ? std::string(why) : std::string("filas: ") + dt_status_str(st));
        return env.Undefined();
      }
      Napi::Array o = Napi::Array::New(env, m);
      for (size_t i = 0; i < m; i++) {
        size_t len = 0;
        const char *s = dt_mascara_plan_valor(p, i, &len);
        size_t j = de[i];
        if (nulo[j] || (len == 0 && lens[j] > 0)) o.Set(static_cast<uint32_t>(i), env.Null());
        else o.Set(static_cast<uint32_t>(i), Napi::String::New(env, s, len));
      }
      out.Set(r, o);
    }
    Napi::Array res = Napi::Array::New(env, 2);
    res.Set(0u, Salida(env, p));
    res.Set(1u, out);
    dt_mascara_plan_free(p);
    return res;
  }

  static void NadaSchema(struct ArrowSchema *s) { s->release = nullptr; }
  static void NadaArray(struct ArrowArray *a) { a->release = nullptr; }

  // arrow(names, columns, length, primera) -> [output names, buffers]: utf8 columns in Tabla.arrow()'s
  // layout ({nulos, validez: Uint8Array | null, offsets: Int32Array, datos: Uint8Array}, checked by
  // index.js), borrowed for the call as one Arrow record batch, masked by dt_mascara_arrow_lote; the
  // result copied once into memory V8 owns, as Tabla.arrow()'s.
  Napi::Value Arrow(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    if (r_ == nullptr || k_ == nullptr) {
      Fail(env, DT_ERR_NULL, "datoteca: this Enmascarador was freed");
      return env.Undefined();
    }
    Napi::Array nombresJs = info[0].As<Napi::Array>();
    Napi::Array cols = info[1].As<Napi::Array>();
    int64_t n = info[2].As<Napi::Number>().Int64Value();
    uint64_t primera = static_cast<uint64_t>(info[3].As<Napi::Number>().Int64Value());
    size_t nc = nombresJs.Length();
    std::vector<std::string> nombres(nc);
    std::vector<struct ArrowSchema> sc(nc);
    std::vector<struct ArrowSchema *> scp(nc + 1);
    std::vector<struct ArrowArray> ac(nc);
    std::vector<struct ArrowArray *> acp(nc + 1);
    std::vector<const void *> bufs(3 * nc + 1);
    for (size_t j = 0; j < nc; j++) {
      nombres[j] = nombresJs.Get(static_cast<uint32_t>(j)).As<Napi::String>().Utf8Value();
      Napi::Object c = cols.Get(static_cast<uint32_t>(j)).As<Napi::Object>();
      Napi::Value v = c.Get("validez");
      bufs[3 * j] = v.IsNull() ? nullptr : v.As<Napi::Uint8Array>().Data();
      bufs[3 * j + 1] = c.Get("offsets").As<Napi::Int32Array>().Data();
      bufs[3 * j + 2] = c.Get("datos").As<Napi::Uint8Array>().Data();
      int64_t nulos = static_cast<int64_t>(c.Get("nulos").As<Napi::Number>().Int64Value());
      sc[j] = {"u", nombres[j].c_str(), nullptr, ARROW_FLAG_NULLABLE, 0, nullptr, nullptr, NadaSchema, nullptr};
      scp[j] = &sc[j];
      ac[j] = {n, bufs[3 * j] ? nulos : 0, 0, 3, 0, &bufs[3 * j], nullptr, nullptr, NadaArray, nullptr};
      acp[j] = &ac[j];
    }
    const void *sin_validez[1] = {nullptr};
    struct ArrowSchema s = {"+s", "", nullptr, 0, static_cast<int64_t>(nc), scp.data(), nullptr, NadaSchema, nullptr};
    struct ArrowArray a = {n, 0, 0, 1, static_cast<int64_t>(nc), sin_validez, acp.data(), nullptr, NadaArray, nullptr};
    dt_mascara_plan *p = nullptr;
    char why[DT_SENTENCE_MAX] = "";
    dt_status st = dt_mascara_plan_arrow(r_, k_, &s, &p, why, sizeof why);
    if (st != DT_OK) {
      Fail(env, st, why[0] ? std::string(why) : std::string("plan: ") + dt_status_str(st));
      return env.Undefined();
    }
    struct ArrowArray o;
    st = dt_mascara_arrow_lote(p, &s, &a, primera, &o, why, sizeof why);
    if (st != DT_OK) {
      dt_mascara_plan_free(p);
      Fail(env, st, why[0] ? std::string(why) : std::string("arrow: ") + dt_status_str(st));
      return env.Undefined();
    }
    size_t filas = static_cast<size_t>(n);
    Napi::Array out = Napi::Array::New(env, static_cast<size_t>(o.n_children));
    for (int64_t i = 0; i < o.n_children; i++) {
      const struct ArrowArray *c = o.children[i];
      Napi::Object x = Napi::Object::New(env);
      x.Set("nulos", Napi::Number::New(env, static_cast<double>(c->null_count)));
      if (c->buffers[0] != nullptr) {
        x.Set("validez", Napi::Uint8Array::New(env, (filas + 7) / 8, Copia(env, c->buffers[0], (filas + 7) / 8), 0));
      } else {
        x.Set("validez", env.Null());
      }
      size_t bytes = static_cast<size_t>(static_cast<const int32_t *>(c->buffers[1])[filas]);
      x.Set("offsets", Napi::Int32Array::New(env, filas + 1, Copia(env, c->buffers[1], (filas + 1) * 4), 0));
      x.Set("datos", Napi::Uint8Array::New(env, bytes, Copia(env, c->buffers[2], bytes), 0));
      out.Set(static_cast<uint32_t>(i), x);
    }
    o.release(&o);
    Napi::Array res = Napi::Array::New(env, 2);
    res.Set(0u, Salida(env, p));
    res.Set(1u, out);
    dt_mascara_plan_free(p);
    return res;
  }

  // Free the rules and wipe the key now; later calls throw ClosedError. Twice is a no-op.
  Napi::Value Free(const Napi::CallbackInfo &info) {
    dt_mascara_clave_free(k_);
    dt_mascara_reglas_free(r_);
    k_ = nullptr;
    r_ = nullptr;
    return info.Env().Undefined();
  }
};

// A call's or a utility's description for index.js: name, kind, parameters (with their choices),
// record fields and which of them may be null.
Napi::Object Describe(Napi::Env env, const dt_call_info *c, size_t i, bool llamada) {
  auto o = Napi::Object::New(env);
  o.Set("name", c->name);
  o.Set("kind", c->kind);
  auto params = Napi::Array::New(env);
  for (size_t j = 0; j < c->nparams; j++) {
    const dt_param_info *p = &c->params[j];
    auto po = Napi::Object::New(env);
    po.Set("name", p->name);
    po.Set("def", Napi::Number::New(env, (double)p->def));
    po.Set("min", Napi::Number::New(env, (double)p->min));
    po.Set("max", Napi::Number::New(env, (double)p->max));
    if (p->choices) {
      auto ch = Napi::Array::New(env);
      for (int64_t v = p->min; v <= p->max; v++) ch.Set((uint32_t)(v - p->min), p->choices[v - p->min]);
      po.Set("choices", ch);
    }
    params.Set((uint32_t)j, po);
  }
  o.Set("params", params);
  auto fields = Napi::Array::New(env);
  auto nullable = Napi::Array::New(env);
  for (size_t j = 0; j < c->nfields; j++) {
    fields.Set((uint32_t)j, c->fields[j]);
    nullable.Set((uint32_t)j, Napi::Boolean::New(env, llamada && dt_call_field_nullable(i, j) != 0));
  }
  o.Set("fields", fields);
  o.Set("nullable", nullable);
  return o;
}

Napi::Value CallInfo(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  auto calls = Napi::Array::New(env);
  for (size_t i = 0; i < dt_call_count(); i++) calls.Set((uint32_t)i, Describe(env, dt_call_at(i), i, true));
  return calls;
}

Napi::Value UtilInfo(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  auto utils = Napi::Array::New(env);
  for (size_t i = 0; i < dt_util_count(); i++) utils.Set((uint32_t)i, Describe(env, dt_util_at(i), i, false));
  return utils;
}

// util(index, texto | null, args) -> the value (a string), or for a check (DT_KIND_VALIDAR) whether the
// text is valid; a refusal throws the library's sentence.
Napi::Value Util(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  size_t index = info[0].As<Napi::Number>().Uint32Value();
  std::string texto = info[1].IsString() ? info[1].As<Napi::String>().Utf8Value() : std::string();
  std::vector<int64_t> a = Args(info[2]);
  char buf[DT_SENTENCE_MAX];
  size_t len = 0;
  dt_status st = dt_util(index, texto.data(), texto.size(), a.empty() ? nullptr : a.data(), a.size(), buf, sizeof buf, &len);
  const dt_call_info *u = dt_util_at(index);
  if (u != nullptr && u->kind == DT_KIND_VALIDAR && st != DT_ERR_NULL) return Napi::Boolean::New(env, st == DT_OK);
  if (st != DT_OK) {
    Fail(env, st, buf);
    return env.Undefined();
  }
  return MakeString(env, buf, len);
}

// paramChoice(utility: boolean, index, param, name) -> the choice's value; an unknown name throws the
// library's sentence.
Napi::Value ParamChoice(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  size_t index = info[1].As<Napi::Number>().Uint32Value();
  const dt_call_info *c = info[0].ToBoolean().Value() ? dt_util_at(index) : dt_call_at(index);
  std::string name = info[3].As<Napi::String>().Utf8Value();
  int64_t v = 0;
  char why[DT_SENTENCE_MAX];
  dt_status st = dt_param_choice(c, info[2].As<Napi::Number>().Uint32Value(), name.data(), name.size(), &v, why, sizeof why, nullptr);
  if (st != DT_OK) {
    Fail(env, st, why);
    return env.Undefined();
  }
  return Napi::Number::New(env, (double)v);
}

// callCheck(index, args) -> the library's sentence for arguments it refuses ("" when it accepts them).
Napi::Value CallCheck(const Napi::CallbackInfo &info) {
  std::vector<int64_t> a = Args(info[1]);
  char why[DT_SENTENCE_MAX] = "";
  dt_call_check(info[0].As<Napi::Number>().Uint32Value(), a.empty() ? nullptr : a.data(), a.size(), why, sizeof why, nullptr);
  return Napi::String::New(info.Env(), why);
}

// tables() -> [{name, rows, digest}]: the data tables and their digests (digest as 16 hex digits).
Napi::Value Tables(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  auto out = Napi::Array::New(env);
  for (size_t i = 0; i < dt_referencia_count(); i++) {
    dt_referencia_info t;
    if (dt_referencia_at(i, &t) != DT_OK) {
      Napi::Error::New(env, "datoteca: dt_referencia_at failed for a listed table").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)t.digest);
    auto o = Napi::Object::New(env);
    o.Set("name", t.name);
    o.Set("rows", Napi::Number::New(env, t.rows));
    o.Set("digest", hex);
    out.Set((uint32_t)i, o);
  }
  return out;
}

// cliMain(args: string[]) -> exit status: the library's command line (dt_cli_main), writing to this
// process's stdout and stderr through C stdio.
Napi::Value CliMain(const Napi::CallbackInfo &info) {
  Napi::Array a = info[0].As<Napi::Array>();
  std::vector<std::string> args;
  args.push_back("datoteca");
  for (uint32_t i = 0; i < a.Length(); i++) args.push_back(a.Get(i).As<Napi::String>().Utf8Value());
  std::vector<char *> argv;
  for (auto &s : args) argv.push_back(&s[0]);
  argv.push_back(nullptr);
  return Napi::Number::New(info.Env(), dt_cli_main(static_cast<int>(args.size()), argv.data()));
}

Napi::Object InitModule(Napi::Env env, Napi::Object exports) {
  Napi::Function gen = Gen::Init(env);
  // Per environment (main thread and each worker), so derive() builds the right class.
  Datos *datos = new Datos();
  datos->gen = Napi::Persistent(gen);
  env.SetInstanceData<Datos>(datos);
  exports.Set("Gen", gen);
  exports.Set("Tabla", Tabla::Init(env));
  exports.Set("Esquema", Esquema::Init(env));
  exports.Set("Enmascarador", Enmascarador::Init(env));
  exports.Set("callInfo", Napi::Function::New(env, CallInfo));
  exports.Set("utilInfo", Napi::Function::New(env, UtilInfo));
  exports.Set("util", Napi::Function::New(env, Util));
  exports.Set("paramChoice", Napi::Function::New(env, ParamChoice));
  exports.Set("callCheck", Napi::Function::New(env, CallCheck));
  exports.Set("cliMain", Napi::Function::New(env, CliMain));
  exports.Set("tables", Napi::Function::New(env, Tables));
  // setErrors(fn): fn(status, sentence) builds the error every refusal throws (index.js, from spec/).
  exports.Set("setErrors", Napi::Function::New(env, [](const Napi::CallbackInfo &i) -> Napi::Value {
    i.Env().GetInstanceData<Datos>()->error = Napi::Persistent(i[0].As<Napi::Function>());
    return i.Env().Undefined();
  }));
  exports.Set("version", Napi::String::New(env, dt_version()));
  exports.Set("versionNumber", Napi::Number::New(env, dt_version_number()));
  exports.Set("dataVersion", Napi::Number::New(env, dt_data_version()));
  return exports;
}

}  // namespace

NODE_API_MODULE(datoteca, InitModule)
