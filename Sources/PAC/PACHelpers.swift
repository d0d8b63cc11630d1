/// JavaScript run before every PAC script: the helpers where libpacparser 1.3 (an old copy of
/// Mozilla's `pac_utils`) differs from what browsers run today, and `alert`.
///
/// - `weekdayRange`, `dateRange` and `timeRange` take a range whose start comes after its end
///   as one that wraps around (`weekdayRange("FRI", "MON")` is Friday to Monday, `timeRange(22,
///   0, 6, 0)` the night), as Netscape's PAC definition describes and Firefox's and Chromium's
///   helper libraries do; libpacparser's are false on every such range. The argument forms are
///   the definition's: `GMT` last; `timeRange(H)`, `(H1, H2)` (whole hours, not wrapping, as the
///   browsers have it), `(H1, M1, H2, M2)`, `(H1, M1, S1, H2, M2, S2)`; `dateRange` with a day
///   (below 32), a month name or a year (32 and above), or one to three of them per side.
/// - `alert(message)`, which browsers give PAC scripts for their logs, does nothing here rather
///   than fail a script that logs.
enum PACHelpers {
    static let script = #"""
        var alert = function (message) {};
        (function (global) {
          var dayNumbers = { SUN: 0, MON: 1, TUE: 2, WED: 3, THU: 4, FRI: 5, SAT: 6 };
          var monthNumbers = { JAN: 0, FEB: 1, MAR: 2, APR: 3, MAY: 4, JUN: 5, JUL: 6, AUG: 7, SEP: 8, OCT: 9, NOV: 10, DEC: 11 };
          function inRange(start, value, end) {
            return start <= end ? start <= value && value <= end : value >= start || value <= end;
          }
          function readArguments(given) {
            var words = [];
            for (var index = 0; index < given.length; index++) words.push(given[index]);
            var gmt = words.length > 0 && words[words.length - 1] == "GMT";
            if (gmt) words.pop();
            var clock = new Date();
            if (gmt) {
              clock = new Date(clock.getUTCFullYear(), clock.getUTCMonth(), clock.getUTCDate(),
                clock.getUTCHours(), clock.getUTCMinutes(), clock.getUTCSeconds());
            }
            return { words: words, now: clock };
          }
          global.weekdayRange = function () {
            var read = readArguments(arguments);
            var count = read.words.length;
            if (count < 1 || count > 2) return false;
            var first = dayNumbers.hasOwnProperty(read.words[0]) ? dayNumbers[read.words[0]] : -1;
            var last = count == 2 ? (dayNumbers.hasOwnProperty(read.words[1]) ? dayNumbers[read.words[1]] : -1) : first;
            return first >= 0 && last >= 0 && inRange(first, read.now.getDay(), last);
          };
          global.timeRange = function () {
            var read = readArguments(arguments);
            var n = [];
            for (var index = 0; index < read.words.length; index++) n.push(parseInt(read.words[index], 10));
            var now = read.now;
            var second = now.getHours() * 3600 + now.getMinutes() * 60 + now.getSeconds();
            switch (n.length) {
              case 1: return now.getHours() == n[0];
              case 2: return n[0] <= now.getHours() && now.getHours() <= n[1];
              case 4: return inRange(n[0] * 3600 + n[1] * 60, second, n[2] * 3600 + n[3] * 60 + 59);
              case 6: return inRange(n[0] * 3600 + n[1] * 60 + n[2], second, n[3] * 3600 + n[4] * 60 + n[5]);
              default: throw new Error("timeRange takes 1, 2, 4 or 6 numbers, and GMT");
            }
          };
          global.dateRange = function () {
            var read = readArguments(arguments);
            var words = read.words, now = read.now;
            function apply(date, word) {
              var number = parseInt(word, 10);
              if (isNaN(number)) date.setMonth(monthNumbers.hasOwnProperty(word) ? monthNumbers[word] : -1);
              else if (number < 32) date.setDate(number);
              else date.setFullYear(number);
            }
            if (words.length == 1) {
              var only = parseInt(words[0], 10);
              if (isNaN(only)) return now.getMonth() == (monthNumbers.hasOwnProperty(words[0]) ? monthNumbers[words[0]] : -1);
              return only < 32 ? now.getDate() == only : now.getFullYear() == only;
            }
            if (words.length < 2 || words.length > 6 || words.length % 2 != 0) return false;
            var start = new Date(now.getFullYear(), 0, 1, 0, 0, 0);
            var end = new Date(now.getFullYear(), 11, 31, 23, 59, 59);
            var half = words.length / 2;
            for (var left = 0; left < half; left++) apply(start, words[left]);
            for (var right = half; right < words.length; right++) apply(end, words[right]);
            // Two days alone are days of this month.
            if (words.length == 2 && !isNaN(parseInt(words[0], 10)) && parseInt(words[0], 10) < 32) {
              start.setMonth(now.getMonth());
              end.setMonth(now.getMonth());
            }
            return inRange(start.getTime(), now.getTime(), end.getTime());
          };
        })(this);
        """#
}
