"""Unit tests of build.py's place split: `python3 -m unittest scripts/segments/test_build.py`."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from build import split_place  # noqa: E402


class SplitPlace(unittest.TestCase):
    def test_province_and_city(self):
        self.assertEqual(split_place("广东省深圳市", "Shenzhen, Guangdong"),
                         ("440000", "广东", "深圳", "Guangdong", "Shenzhen"))

    def test_municipality_is_its_own_city(self):
        self.assertEqual(split_place("北京市", "Beijing"), ("110000", "北京", "北京", "Beijing", "Beijing"))
        self.assertEqual(split_place("天津", "Tianjin"), ("120000", "天津", "天津", "Tianjin", "Tianjin"))

    def test_regions_without_province_suffix(self):
        self.assertEqual(split_place("内蒙古包头市", "Baotou, Inner Mongolia")[:3], ("150000", "内蒙古", "包头"))
        self.assertEqual(split_place("广西南宁市", "Nanning, Guangxi")[:3], ("450000", "广西", "南宁"))
        self.assertEqual(split_place("黑龙江省哈尔滨市", "Harbin, Heilongjiang")[:3], ("230000", "黑龙江", "哈尔滨"))
        self.assertEqual(split_place("新疆伊犁哈萨克自治州", "Ili, Xinjiang")[2], "伊犁哈萨克自治州")

    def test_unknown_province_or_no_city_is_an_error(self):
        with self.assertRaises(ValueError):
            split_place("台湾省台北市", "Taipei, Taiwan")
        with self.assertRaises(ValueError):
            split_place("广东省", "Guangdong")


if __name__ == "__main__":
    unittest.main()
