/**
 * `news mcp --max-points`: the price of a request before it is sent, the
 * budget's refusal (counting what running calls hold), and what the
 * responses say they cost.
 */
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../src/api/types.js';
import { BudgetError } from '../../src/cli/budget-error.js';
import { PointsBudget, requestCost, responseCost } from '../../src/cli/mcp/points.js';

const response = (usage: Record<string, string>, mode?: 'live' | 'test'): ApiResponse<unknown> => ({
  status: 200,
  headers: {},
  body: {},
  usage,
  attempts: 1,
  ...(mode === undefined ? {} : { mode }),
});

describe('requestCost', () => {
  it('prices requests as the specification does', () => {
    expect(requestCost({ method: 'GET', path: '/ping' })).toBe(0);
    expect(requestCost({ method: 'GET', path: '/v1/balance' })).toBe(0);
    expect(requestCost({ method: 'GET', path: '/v1/suggest/topics' })).toBe(0);
    expect(requestCost({ method: 'GET', path: '/v1/news/event-types' })).toBe(0);
    expect(requestCost({ method: 'POST', path: '/v1/news/everything', body: {} })).toBe(1);
    expect(
      requestCost({ method: 'POST', path: '/v1/news/everything', body: { prompt: 'rates' } }),
    ).toBe(3);
    expect(
      requestCost({ method: 'POST', path: '/v1/news/local', body: { insights: 'mood,hotspots' } }),
    ).toBe(3);
    expect(requestCost({ method: 'GET', path: '/v1/people', query: {} })).toBe(1);
    expect(requestCost({ method: 'POST', path: '/v1/fact-check', body: { claim: 'x' } })).toBe(1);
    expect(requestCost({ method: 'POST', path: '/v1/fact-check', body: { id: 1 } })).toBe(5);
    expect(
      requestCost({ method: 'POST', path: '/v1/fact-check', body: { id: 1, max_claims: 2 } }),
    ).toBe(2);
  });
});

describe('responseCost', () => {
  it('believes the X-Points-Used header, else the estimate; a test key pays nothing', () => {
    expect(responseCost(response({ 'x-points-used': '0' }), 1)).toBe(0);
    expect(responseCost(response({ 'x-points-used': '3' }), 1)).toBe(3);
    expect(responseCost(response({}), 2)).toBe(2);
    expect(responseCost(response({}, 'test'), 2)).toBe(0);
  });
});

describe('PointsBudget', () => {
  it('refuses what would pass the budget, counting what running calls hold', () => {
    const budget = new PointsBudget(5);
    const first = budget.reserve(3, 'this call');
    expect(budget.left).toBe(2);
    expect(() => budget.reserve(3, 'this call')).toThrow(BudgetError);
    expect(() => budget.reserve(3, 'this call')).toThrow(
      'refused: this call would take about 3 points, more than the 2 left of --max-points 5 (0 spent); nothing was sent',
    );
    budget.settle(first, 1);
    expect(budget.spent).toBe(1);
    expect(budget.left).toBe(4);
    expect(budget.meta()).toEqual({ points_spent: 1, points_budget: 5, points_left: 4 });
  });

  it('never refuses without a budget, and still counts', () => {
    const budget = new PointsBudget(undefined);
    budget.settle(budget.reserve(1000, 'this call'), 7);
    expect(budget.left).toBeUndefined();
    expect(budget.meta()).toEqual({ points_spent: 7 });
  });

  it('learns the plan per_page cap from a page', () => {
    const budget = new PointsBudget(10);
    budget.notePage(100, 100);
    expect(budget.perPageCap).toBeUndefined();
    budget.notePage(50, 10);
    expect(budget.perPageCap).toBe(10);
  });
});
