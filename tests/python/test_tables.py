"""The table generator refuses data that would not fit the records: a CSV edit must never write
past a struct field (a 35-byte comuna once overflowed dt_direccion.comuna silently)."""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GEN = os.path.join(ROOT, "tools", "gen", "tablas.py")


def _data_with(tmp_path, name, old, new):
    data = tmp_path / "data"
    shutil.copytree(os.path.join(ROOT, "c", "data"), data)
    path = data / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{name} no longer has {old!r}: update the test"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return data


def _generate(data):
    return subprocess.run([sys.executable, GEN, "--data", str(data), "--dry-run"], capture_output=True, text=True)


def test_the_real_data_fits():
    r = _generate(os.path.join(ROOT, "c", "data"))
    assert r.returncode == 0, r.stdout + r.stderr


def test_an_overlong_comuna_is_refused_naming_the_csv_line_and_field(tmp_path):
    data = _data_with(tmp_path, "comunas.csv", ",Puente Alto,", ",Puente Alto de la Cordillera And,")
    r = _generate(data)
    line = next(i for i, l in enumerate((data / "comunas.csv").read_text(encoding="utf-8").splitlines(), 1)
                if "Puente Alto de la Cordillera And" in l)
    assert r.returncode != 0
    assert (f"c/data/comunas.csv line {line}: nombre 'Puente Alto de la Cordillera And' is 32 bytes; "
            f"the field comuna of direccion.direccion holds at most 31") in r.stderr, r.stderr


def test_an_overlong_bank_and_giro_are_refused(tmp_path):
    r = _generate(_data_with(tmp_path, "bancos.csv", ",Santander,", ",Banco Santander Chile de las Américas,"))
    assert r.returncode != 0 and "the field nombre of banco.banco holds at most 31" in r.stderr, r.stderr
    shutil.rmtree(tmp_path / "data")
    r = _generate(_data_with(tmp_path, "giros.csv", "Cultivo de uva destinada a la producción de vino",
                             "Cultivo de uva destinada a la producción de vino y de pisco y de otros aguardientes"))
    assert r.returncode != 0 and "the field giro of empresa.empresa holds at most 79" in r.stderr, r.stderr
