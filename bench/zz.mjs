import { loadFixtures } from '../dist/mock/store/load.js';
const t0 = performance.now(); const c0 = process.cpuUsage();
const s = await loadFixtures({ now: new Date('2026-03-15T12:00:00Z'), articles: 100000 });
const c = process.cpuUsage(c0);
console.log('load wall ms', (performance.now() - t0).toFixed(0), 'cpu ms', ((c.user + c.system) / 1000).toFixed(0), s.size, (process.memoryUsage().rss / 1e6).toFixed(0), 'MB');
