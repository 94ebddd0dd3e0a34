#!/usr/bin/env python3
"""Builds data/segments/cn-segments.csv.gz, the default number-segment table, from
Google libphonenumber's +86 geocoding and carrier data as the PyPI package
`phonenumbers` ships it (Apache-2.0). See data/segments/SOURCE.md for the command.

Usage: build.py <path to an unpacked phonenumbers wheel or its site-packages> <out.csv.gz>

One row per 7-digit mobile prefix: libphonenumber keys some places by 5 or 6 digits;
those are spread over the 7-digit prefixes they cover, and a longer key wins, as it
does in libphonenumber's own longest-prefix lookup.
"""
import csv
import gzip
import io
import sys

# GB/T 2260 province-level codes, keyed by the name libphonenumber's zh text starts with
# (longest first when matched). English names are libphonenumber's own spellings.
PROVINCES = {
    "北京": ("110000", "Beijing"), "天津": ("120000", "Tianjin"), "河北": ("130000", "Hebei"),
    "山西": ("140000", "Shanxi"), "内蒙古": ("150000", "Inner Mongolia"), "辽宁": ("210000", "Liaoning"),
    "吉林": ("220000", "Jilin"), "黑龙江": ("230000", "Heilongjiang"), "上海": ("310000", "Shanghai"),
    "江苏": ("320000", "Jiangsu"), "浙江": ("330000", "Zhejiang"), "安徽": ("340000", "Anhui"),
    "福建": ("350000", "Fujian"), "江西": ("360000", "Jiangxi"), "山东": ("370000", "Shandong"),
    "河南": ("410000", "Henan"), "湖北": ("420000", "Hubei"), "湖南": ("430000", "Hunan"),
    "广东": ("440000", "Guangdong"), "广西": ("450000", "Guangxi"), "海南": ("460000", "Hainan"),
    "重庆": ("500000", "Chongqing"), "四川": ("510000", "Sichuan"), "贵州": ("520000", "Guizhou"),
    "云南": ("530000", "Yunnan"), "西藏": ("540000", "Tibet"), "陕西": ("610000", "Shaanxi"),
    "甘肃": ("620000", "Gansu"), "青海": ("630000", "Qinghai"), "宁夏": ("640000", "Ningxia"),
    "新疆": ("650000", "Xinjiang"),
}
MUNICIPALITIES = {"北京", "天津", "上海", "重庆"}

# libphonenumber's carrier names → the server's carrier codes (src/domain/phone.rs).
CARRIERS = {"中国移动": "mobile", "中国联通": "unicom", "中国电信": "telecom", "中国广电": "broadnet"}


def split_place(zh, en):
    """'广东省深圳市' → ('440000', '广东', '深圳', 'Guangdong', 'Shenzhen'); a
    municipality ('北京市') is its own city."""
    for name in sorted(PROVINCES, key=len, reverse=True):
        if zh.startswith(name):
            code, province_en = PROVINCES[name]
            rest = zh[len(name):]
            for suffix in ("省", "自治区", "市"):
                if rest.startswith(suffix):
                    rest = rest[len(suffix):]
                    break
            city = name if name in MUNICIPALITIES else rest.removesuffix("市")
            city_en = province_en if name in MUNICIPALITIES else en.split(",")[0].strip()
            if not city:
                raise ValueError(f"no city in {zh!r}")
            return code, name, city, province_en, city_en
    raise ValueError(f"unknown province in {zh!r}")


def spread(data, keep):
    """{7-digit prefix: value} from libphonenumber's '86'-keyed table, longest key winning."""
    out = {}
    keys = sorted((k for k in data if k.startswith("861") and len(k) <= 9 and k[3] in "3456789"), key=len)
    for key in keys:
        value = keep(data[key])
        digits = key[2:]
        span = 10 ** (7 - len(digits))
        start = int(digits) * span
        for prefix in range(start, start + span):
            out[prefix] = value
    return out


def main():
    source, target = sys.argv[1], sys.argv[2]
    sys.path.insert(0, source)
    from phonenumbers.carrierdata import CARRIER_DATA
    from phonenumbers.geodata import GEOCODE_DATA

    places = spread(GEOCODE_DATA, lambda names: split_place(names["zh"], names["en"]))
    carriers = spread(CARRIER_DATA, lambda names: CARRIERS[names["zh"]])
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["prefix", "province_code", "province", "city", "carrier", "province_en", "city_en"])
    for prefix in sorted(places):
        code, province, city, province_en, city_en = places[prefix]
        writer.writerow([prefix, code, province, city, carriers.get(prefix, ""), province_en, city_en])
    # mtime 0: the same data gives the same bytes, so a rebuild shows no spurious diff.
    with open(target, "wb") as out, gzip.GzipFile(fileobj=out, mode="wb", mtime=0, filename="") as gz:
        gz.write(buffer.getvalue().encode("utf-8"))
    print(f"{len(places)} prefixes, {sum(1 for p in places if p in carriers)} with a carrier")


if __name__ == "__main__":
    main()
